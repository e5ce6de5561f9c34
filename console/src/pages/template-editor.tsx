import { Suspense, lazy, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Liquid } from 'liquidjs';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { allowed } from '../session';
import { ErrorNote, Notice, PageTitle, go, useDomainChoice } from '../ui';

// CodeMirror comes with the editor, on first visit: no other page downloads it.
const CodeEditor = lazy(() => import('../code-editor').then((m) => ({ default: m.CodeEditor })));

const Template = graphql(`
  query ConsoleTemplate($id: ID!) {
    template(template_id: $id) { id name tags variables subject html text domain { id name } }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateTemplate($name: String!, $subject: String, $html: String!, $text: String, $auto: Boolean) {
    create_template(name: $name, subject: $subject, html: $html, text: $text, auto_generate: $auto) { id }
  }
`);

const Update = graphql(`
  mutation ConsoleUpdateTemplate($id: ID!, $name: String, $subject: String, $html: String, $text: String) {
    update_template(template_id: $id, name: $name, subject: $subject, html: $html, text: $text) { id name variables }
  }
`);

// The server's engine (liquidjs) in the browser, for the preview and its error line; the server
// still cleans HTML values and enforces its own limits when it renders for real. The preview has
// limits of its own, so a stored template of huge loops ends in an error line instead of holding
// the tab (test/console/designer.test.ts): the time of one render (checked between nodes), what
// filters and ranges may allocate, and the characters one parse reads.
const liquid = new Liquid({ ownPropertyOnly: true, templates: {}, renderLimit: 250, memoryLimit: 10_000_000, parseLimit: 2_000_000 });

/** The variables the texts read, as the engine sees them (what the server lists as `variables`). */
function variablesOf(...texts: string[]): string[] {
  const names = new Set<string>();
  for (const t of texts) {
    try {
      for (const name of liquid.globalVariablesSync(t)) if (name !== 'unsubscribe') names.add(name);
    } catch {
      // A syntax error: the preview says where.
    }
  }
  return [...names];
}

/** A text rendered with the sample values, or the engine's error (with its line). */
function render(text: string, values: Record<string, string>): { out: string; error: string | null } {
  try {
    return { out: liquid.parseAndRenderSync(text, values), error: null };
  } catch (e) {
    return { out: '', error: e instanceof Error ? e.message : String(e) };
  }
}

export function TemplateEditor({ id }: { id: string | null }) {
  const [{ data, error }] = useQuery({ query: Template, variables: { id: id ?? '' }, pause: !id });
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const [name, setName] = useState<string | null>(null);
  const [subject, setSubject] = useState('');
  const [html, setHtml] = useState(id ? '' : '<h1>Hello {{ name }}</h1>\n<p>Welcome aboard.</p>');
  const [text, setText] = useState('');
  const [saved, setSaved] = useState(false);
  const shownName = name ?? data?.template.name ?? '';
  // The stored content, once, when it arrives: the fields are then edited in place.
  const loaded = data?.template;
  useEffect(() => {
    if (!loaded) return;
    setSubject(loaded.subject ?? '');
    setHtml(loaded.html);
    setText(loaded.text);
  }, [loaded?.id]);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    if (!id) {
      // Without a text part, the server writes one from the HTML.
      const res = await create({ name: shownName, subject: subject || null, html, text: text || null, auto: text ? null : true });
      if (res.data) go(`templates/${res.data.create_template.id}`);
      return;
    }
    const res = await update({ id, name: shownName || null, subject: subject || null, html, text: text || null });
    setSaved(!res.error);
  }

  return (
    <>
      <PageTitle>{id ? `Template: ${data?.template.name ?? ''}` : 'New template'}</PageTitle>
      <ErrorNote error={error ?? created.error ?? updated.error} />
      {saved ? <Notice>Saved.</Notice> : null}
      <div className="editor">
        <form className="stack" onSubmit={save} aria-label="Template">
          <label>
            Name
            <input required value={shownName} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Subject
            <input value={subject} onChange={(e) => setSubject(e.target.value)} />
          </label>
          <CodeField label="HTML" id="template-html" value={html} onChange={setHtml} lines={12} />
          <CodeField label="Text (empty: made from the HTML)" id="template-text" value={text} onChange={setText} lines={4} />
          <p id="template-code-keys" className="muted small">
            In the HTML and text fields, Tab indents; press Escape, then Tab, to move on.
          </p>
          <button type="submit" className="primary" disabled={created.fetching || updated.fetching}>
            {id ? 'Save template' : 'Create template'}
          </button>
        </form>
        <Preview id={id} subject={subject} html={html} text={text} />
      </div>
    </>
  );
}

/** The template rendered live with sample values for its variables, at a chosen width; and a test send. */
function Preview({ id, subject, html, text }: { id: string | null; subject: string; html: string; text: string }) {
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [width, setWidth] = useState(600);
  const variables = useMemo(() => variablesOf(subject, html, text), [subject, html, text]);
  const shownSubject = useMemo(() => render(subject, samples), [subject, samples]);
  const shownHtml = useMemo(() => render(html, samples), [html, samples]);
  return (
    <section aria-labelledby="preview">
      <h2 id="preview">Preview</h2>
      {variables.length ? (
        <fieldset>
          <legend>Variables (sample values for the preview)</legend>
          {variables.map((v) => (
            <label key={v}>
              Value for {v}
              <input value={samples[v] ?? ''} onChange={(e) => setSamples({ ...samples, [v]: e.target.value })} />
            </label>
          ))}
        </fieldset>
      ) : null}
      <ErrorNote error={shownSubject.error ?? shownHtml.error} />
      <p>
        <strong>{shownSubject.out}</strong>
      </p>
      <div className="tabs" role="radiogroup" aria-label="Preview width">
        {WIDTHS.map((w) => (
          <label key={w.name} className="inline">
            <input type="radio" name="preview-width" checked={width === w.px} onChange={() => setWidth(w.px)} /> {w.name} ({w.px} px)
          </label>
        ))}
      </div>
      <iframe className="preview" title="Template preview" sandbox="" srcDoc={shownHtml.out} style={{ maxWidth: `${width}px` }} />
      {id && allowed(['control-sendings']) ? <TestSend templateId={id} samples={samples} /> : null}
    </section>
  );
}

/** A field of template source, named by its visible label (the editor is no form control a <label> could name). */
function CodeField({ label, id, value, onChange, lines }: { label: string; id: string; value: string; onChange: (v: string) => void; lines: number }) {
  return (
    <div className="field">
      <span id={`${id}-label`}>{label}</span>
      <Suspense fallback={<p className="muted small">Loading the editor…</p>}>
        <CodeEditor value={value} onChange={onChange} labelledBy={`${id}-label`} describedBy="template-code-keys" lines={lines} />
      </Suspense>
    </div>
  );
}

/** The widths the preview is seen at: a desktop mail client's reading pane, and a phone. */
const WIDTHS = [
  { name: 'Desktop', px: 600 },
  { name: 'Phone', px: 375 },
];

const SendTest = graphql(`
  mutation ConsoleTemplateTestSend($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $template: String!, $personalization: [PersonalizationInput!]) {
    send_email(from: $from, to: $to, template_id: $template, personalization: $personalization) {
      message_id
      warnings { type }
    }
  }
`);

/** Sends the saved template to one address from one of the caller's domains, with the preview's sample values. */
function TestSend({ templateId, samples }: { templateId: string; samples: Record<string, string> }) {
  const { domainName, picker } = useDomainChoice();
  const [sent, send] = useMutation(SendTest);
  const [to, setTo] = useState('');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!domainName) return;
    await send({ from: { email: `test@${domainName}` }, to: [{ email: to }], template: templateId, personalization: [{ email: to, data: samples }] });
  }
  const result = sent.data?.send_email;
  return (
    <form className="stack" onSubmit={submit} aria-label="Send a test">
      <h3>Send a test</h3>
      <p className="muted small">The saved template, with the sample values above, from test@ the chosen domain.</p>
      <div className="row">
        {picker}
        <label>
          To
          <input type="email" required value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" disabled={sent.fetching || !domainName}>
          Send test
        </button>
      </div>
      {!domainName ? <p className="muted small">Add a domain to send from.</p> : null}
      <ErrorNote error={sent.error} />
      {result ? (
        result.warnings.some((w) => w.type === 'ALL_SUPPRESSED') ? (
          <p className="error" role="alert">
            Not sent: the address is on a suppression list.
          </p>
        ) : (
          <Notice>
            Accepted as message {result.message_id}. <a href="#/activity">Watch it in Activity</a>.
          </Notice>
        )
      ) : null}
    </form>
  );
}
