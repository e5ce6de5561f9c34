import { OPERATOR_TOKEN, type TestServer } from './server.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/**
 * Mail the capture transport kept for `to`, newest first, read through the operator API. Waits
 * (up to 10 s) until at least `count` arrived: a worker job sends it after the request returns.
 */
export async function mailsTo(s: TestServer, to: string, count = 1): Promise<Mail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await s.gql(
      'query($to: String) { operator_captured_mail(to: $to) { to subject text html } }',
      { to },
      OPERATOR_TOKEN,
    );
    const mails: Mail[] = res.body.data?.operator_captured_mail ?? [];
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${to}, got ${mails.length}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
