import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, TableHead, When } from '../ui';

const Numbers = graphql(`
  query ConsoleSmsNumbers {
    sms_numbers_page(limit: 100, page: 1) { data { id telephone_number paused created_at } }
  }
`);

const Messages = graphql(`
  query ConsoleSmsActivity {
    sms_activity(limit: 50, page: 1) { sms_message_id from to status content created_at }
  }
`);

/** The SMS page is listed only when the account has numbers. */
export function useHasSmsNumbers(may: boolean): boolean {
  const [{ data }] = useQuery({ query: Numbers, pause: !may });
  return (data?.sms_numbers_page.data.length ?? 0) > 0;
}

export function SmsPage() {
  const [numbers] = useQuery({ query: Numbers });
  const [activity] = useQuery({ query: Messages });
  return (
    <>
      <PageTitle>SMS</PageTitle>
      <ErrorNote error={numbers.error ?? activity.error} />
      <h2>Numbers</h2>
      <ul>
        {numbers.data?.sms_numbers_page.data.map((n) => (
          <li key={n.id}>
            {n.telephone_number} {n.paused ? '(paused)' : ''}
          </li>
        ))}
      </ul>
      <h2>Activity</h2>
      <table>
        <TableHead columns={['When', 'From', 'To', 'Status', 'Text']} />
        <tbody>
          {activity.data?.sms_activity.map((a, i) => (
            <tr key={`${a.sms_message_id}-${a.to}-${i}`}>
              <td>
                <When at={a.created_at} />
              </td>
              <td>{a.from}</td>
              <td>{a.to}</td>
              <td>{a.status}</td>
              <td>{a.content}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
