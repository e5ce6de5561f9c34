import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, TableHead } from '../ui';
import { DmarcMonitors } from './dmarc';

const Blocklist = graphql(`
  query ConsoleBlocklistMonitors {
    blocklist_monitors(limit: 100, page: 1) { id name address type blocklisted last_check in_progress }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateBlocklistMonitor($address: String!, $name: String) {
    create_blocklist_monitor(address: $address, name: $name) { id }
  }
`);

const Delete = graphql(`mutation ConsoleDeleteBlocklistMonitor($id: ID!) { delete_blocklist_monitor(monitor_id: $id) }`);

export function MonitorsPage() {
  const [{ data, error }, refetch] = useQuery({ query: Blocklist });
  const [created, create] = useMutation(Create);
  const [deleted, del] = useMutation(Delete);
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const again = () => refetch({ requestPolicy: 'network-only' });
  // A check under way is polled until it ends, so "checking…" turns into its result unprompted.
  const checking = data?.blocklist_monitors.some((m) => m.in_progress) ?? false;
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), 2000);
    return () => clearInterval(timer);
  }, [checking, refetch]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create({ address, name: name || null });
    if (!res.error) (setAddress(''), setName(''), again());
  }
  return (
    <>
      <PageTitle>Monitors</PageTitle>
      <h2>Blocklist monitors</h2>
      <form className="row" onSubmit={submit} aria-label="Add a blocklist monitor">
        <label>
          IP, range or domain
          <input required value={address} onChange={(e) => setAddress(e.target.value)} />
        </label>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          Add monitor
        </button>
      </form>
      <ErrorNote error={error ?? created.error ?? deleted.error} />
      <table>
        <TableHead columns={['Name', 'Address', 'Listed', 'Last check']} actions />
        <tbody>
          {data?.blocklist_monitors.map((m) => (
            <tr key={m.id}>
              <td>{m.name}</td>
              <td>{m.address}</td>
              <td>{m.in_progress ? 'checking…' : m.blocklisted ? <strong className="bad">listed</strong> : 'clean'}</td>
              <td>{m.last_check ?? 'not yet'}</td>
              <td>
                <button type="button" className="small danger" onClick={() => void del({ id: m.id }).then(again)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <DmarcMonitors />
    </>
  );
}
