import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, When } from '../ui';

const Usage = graphql(`
  query ConsoleUsage {
    usage {
      plan
      retention_days
      verification_credits
      api_quota { quota remaining reset }
    }
  }
`);

/** The account's plan and what it has used: retention, verification credits, the daily API quota. */
export function UsagePage() {
  const [{ data, error }] = useQuery({ query: Usage, requestPolicy: 'cache-and-network' });
  const u = data?.usage;
  return (
    <>
      <PageTitle>Plan and usage</PageTitle>
      <ErrorNote error={error} />
      {u ? (
        <ul className="figures">
          <li className="card">
            <span className="muted small">Plan</span>
            <strong>{u.plan}</strong>
          </li>
          <li className="card">
            <span className="muted small">Mail and logs kept</span>
            <strong>{u.retention_days} days</strong>
          </li>
          {u.verification_credits !== null && u.verification_credits !== undefined ? (
            <li className="card">
              <span className="muted small">Verification credits</span>
              <strong>{u.verification_credits.toLocaleString()}</strong>
              <a className="small" href="#/verification">
                Verify addresses
              </a>
            </li>
          ) : null}
          {u.api_quota ? (
            <li className="card">
              <span className="muted small">API requests left today</span>
              <strong>
                {u.api_quota.remaining.toLocaleString()} of {u.api_quota.quota.toLocaleString()}
              </strong>
              <span className="small muted">
                Starts again <When at={u.api_quota.reset} />
              </span>
            </li>
          ) : null}
        </ul>
      ) : null}
    </>
  );
}
