/**
 * What the listener may hold at once. smtp-server streams DATA to us; whatever we keep of it is
 * memory, so every message is kept in a bounded buffer, and the messages of sessions that did not
 * log in (anyone on the internet) also draw on one shared byte budget.
 */

/** Bytes shared by every buffer drawing on it: a buffer that cannot get more stops buffering. */
export class ByteBudget {
  private used = 0;

  constructor(readonly total: number) {}

  get inUse(): number {
    return this.used;
  }

  get free(): number {
    return this.total - this.used;
  }

  /**
   * Whether a new message has a chance: room for its announced size, and at least a sixteenth
   * of the budget (64 KB at most) when it announced none.
   */
  hasRoomFor(announced: number | null): boolean {
    return this.free >= Math.max(announced ?? 0, Math.min(64 * 1024, this.total / 16));
  }

  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/**
 * One message as it streams in. Past `limit` bytes, or when the budget has no room, it drops what
 * it holds and only counts what follows (the client must still send the rest before it can be
 * answered). It never holds more than `limit` bytes.
 */
export class BoundedBuffer {
  private chunks: Buffer[] = [];
  private held = 0;
  private seen = 0;
  private reserved = 0;
  private dropped = false;

  constructor(
    readonly limit: number,
    private readonly budget: ByteBudget | null,
  ) {}

  /**
   * too-big wins over no-room: a message over its limit is refused for good (552), even when it
   * had already lost its room; one that only lacked room may come again (452).
   */
  get state(): 'ok' | 'too-big' | 'no-room' {
    if (this.seen > this.limit) return 'too-big';
    return this.dropped ? 'no-room' : 'ok';
  }

  push(chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.dropped) return;
    if (this.seen > this.limit || (this.budget && !this.budget.take(chunk.length))) return this.drop();
    this.reserved += this.budget ? chunk.length : 0;
    this.chunks.push(chunk);
    this.held += chunk.length;
  }

  private drop() {
    this.dropped = true;
    this.chunks = [];
    this.held = 0;
    this.release();
  }

  /** The whole message. Its bytes stay drawn from the budget until release(). */
  take(): Buffer {
    const raw = Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    return raw;
  }

  /** Gives the bytes back to the budget; safe to call more than once. */
  release(): void {
    this.budget?.give(this.reserved);
    this.reserved = 0;
    this.chunks = [];
  }
}

/** Open sessions per remote address, so that one address cannot take every connection. */
export class ConnectionCounter {
  private readonly byAddress = new Map<string, number>();
  private readonly sessions = new Map<string, string>();

  constructor(private readonly perAddress: number) {}

  /** Counts the session in, unless its address already has `perAddress` open. */
  admit(sessionId: string, address: string): boolean {
    const open = this.byAddress.get(address) ?? 0;
    if (open >= this.perAddress) return false;
    this.byAddress.set(address, open + 1);
    this.sessions.set(sessionId, address);
    return true;
  }

  /** For every closed session, admitted or not. */
  release(sessionId: string): void {
    const address = this.sessions.get(sessionId);
    if (address === undefined) return;
    this.sessions.delete(sessionId);
    const open = (this.byAddress.get(address) ?? 1) - 1;
    if (open > 0) this.byAddress.set(address, open);
    else this.byAddress.delete(address);
  }

  openFrom(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }
}
