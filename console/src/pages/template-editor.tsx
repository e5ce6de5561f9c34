import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle, go } from '../ui';

const Template = graphql(`
  query ConsoleTemplate($id: ID!) {
    template(template_id: $id) { id name tags variables domain { id name } }
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

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*(?:\|[^}]*)?\}\}/g;

/** The `{{ name }}` placeholders of a text, in order of first use. */
function variablesOf(...texts: string[]): string[] {
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) names.add(m[1]);
  return [...names];
}

/** A preview only: the server renders Liquid in full; here placeholders take the sample values. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => values[name] ?? '');
}

export function TemplateEditor({ id }: { id: string | null }) {
  const [{ data, error }] = useQuery({ query: Template, variables: { id: id ?? '' }, pause: !id });
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const [name, setName] = useState<string | null>(null);
  const [subject, setSubject] = useState('');
  const [html, setHtml] = useState(id ? '' : '<h1>Hello {{ name }}</h1>\n<p>Welcome aboard.</p>');
  const [text, setText] = useState('');
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const shownName = name ?? data?.template.name ?? '';
  const variables = useMemo(() => variablesOf(subject, html, text), [subject, html, text]);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    if (!id) {
      // Without a text part, the server writes one from the HTML.
      const res = await create({ name: shownName, subject: subject || null, html, text: text || null, auto: text ? null : true });
      if (res.data) go(`templates/${res.data.create_template.id}`);
      return;
    }
    // The API does not hand stored content back: empty fields leave the stored content as it is.
    const res = await update({ id, name: shownName || null, subject: subject || null, html: html || null, text: text || null });
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
            <input value={subject} onChange={(e) => setSubject(e.target.value)} placeholder={id ? 'unchanged' : ''} />
          </label>
          <label>
            HTML
            <textarea rows={12} value={html} onChange={(e) => setHtml(e.target.value)} placeholder={id ? 'unchanged (write new HTML to replace it)' : ''} spellCheck={false} />
          </label>
          <label>
            Text (empty: made from the HTML)
            <textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder={id ? 'unchanged' : ''} />
          </label>
          <button type="submit" className="primary" disabled={created.fetching || updated.fetching}>
            {id ? 'Save template' : 'Create template'}
          </button>
        </form>
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
          <p>
            <strong>{fill(subject, samples)}</strong>
          </p>
          <iframe className="preview" title="Template preview" sandbox="" srcDoc={fill(html, samples)} />
        </section>
      </div>
    </>
  );
}
