/**
 * Parsed templates by source, one entry per mode (template.engine.ts). Bounded by the characters
 * of the sources kept (the parsed trees are of the same order), oldest out first; a source larger
 * than a template's parts is parsed each time rather than pushing out all the others.
 */
const CACHE_CHARS = 8 * 1024 * 1024;
const CACHE_SOURCE_MAX = 512 * 1024;

export class ParsedCache<Mode extends string, Parsed> {
  private readonly entries = new Map<string, Partial<Record<Mode, Parsed>>>();
  private chars = 0;

  get(source: string, mode: Mode): Parsed | undefined {
    return this.entries.get(source)?.[mode];
  }

  set(source: string, mode: Mode, parsed: Parsed): void {
    const entry = this.entries.get(source);
    if (entry) {
      entry[mode] = parsed;
      return;
    }
    if (source.length > CACHE_SOURCE_MAX) return;
    while (this.chars + source.length > CACHE_CHARS) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    this.entries.set(source, { [mode]: parsed } as Partial<Record<Mode, Parsed>>);
    this.chars += source.length;
  }
}
