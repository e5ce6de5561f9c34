import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, TableHead, When, Empty } from '../ui';
import { TemplateEditor } from './template-editor';

const Templates = graphql(`
  query ConsoleTemplates {
    templates(limit: 100, page: 1) {
      data { id name tags updated_at variables }
    }
  }
`);

export function TemplatesPage({ rest }: { rest: string[] }) {
  if (rest[0]) return <TemplateEditor id={rest[0] === 'new' ? null : rest[0]} />;
  return <TemplateList />;
}

function TemplateList() {
  const [{ data, error }] = useQuery({ query: Templates });
  return (
    <>
      <PageTitle
        actions={
          <a className="button primary" href="#/templates/new">
            New template
          </a>
        }
      >
        Templates
      </PageTitle>
      <ErrorNote error={error} />
      <Empty when={!!data && !data.templates.data.length}>No template yet. A template keeps a design with {'{{ variables }}'} that each send fills in: use New template.</Empty>
      <table>
        <TableHead columns={['Name', 'Variables', 'Updated']} />
        <tbody>
          {data?.templates.data.map((t) => (
            <tr key={t.id}>
              <td>
                <a href={`#/templates/${t.id}`}>{t.name}</a>
              </td>
              <td>{Object.keys(t.variables ?? {}).join(', ') || '—'}</td>
              <td>
                <When at={t.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
