// mailparser ships no types (and @types/mailparser is not installed): only what the relay reads.
declare module 'mailparser' {
  import { Transform } from 'node:stream';
  export interface EmailAddress {
    address?: string;
    name: string;
    group?: EmailAddress[];
  }
  export interface AddressObject {
    value: EmailAddress[];
    text: string;
  }
  export interface Attachment {
    filename?: string;
    contentType: string;
    contentDisposition?: string;
    cid?: string;
    related?: boolean;
    content: Buffer;
  }
  export interface ParsedMail {
    headerLines: { key: string; line: string }[];
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    cc?: AddressObject | AddressObject[];
    replyTo?: AddressObject;
    subject?: string;
    text?: string;
    html?: string | false;
    inReplyTo?: string;
    messageId?: string;
    references?: string | string[];
    attachments: Attachment[];
  }
  export interface ParserOptions {
    keepCidLinks?: boolean;
    skipHtmlToText?: boolean;
    skipTextToHtml?: boolean;
    skipImageLinks?: boolean;
    skipTextLinks?: boolean;
    /** Longer html is not turned into text: the parser emits an error (bounded-mail.ts refuses the message). */
    maxHtmlLengthToParse?: number;
    /** Keeps message/delivery-status parts as attachments (bounce reports read them). */
    keepDeliveryStatus?: boolean;
  }
  export interface MailParserOptions extends ParserOptions {
    /** mailsplit: MIME nodes at most; past it the parser errors with "Max allowed child nodes exceeded". */
    maxChildNodes?: number;
  }
  export type MailParserData =
    | { type: 'text'; text?: string; html?: string | false; textAsHtml?: string }
    | (Omit<Attachment, 'content'> & { type: 'attachment'; content: NodeJS.ReadableStream; release(): void });
  /** The streaming parser under simpleParser (lib/bounded-mail.ts reads it part by part). */
  export class MailParser extends Transform {
    constructor(options?: MailParserOptions);
    headerLines: { key: string; line: string }[];
    headers: Map<string, unknown>;
    read(): MailParserData | null;
  }
  export function simpleParser(source: Buffer | string | NodeJS.ReadableStream, options?: ParserOptions): Promise<ParsedMail>;
}
