import { useState } from 'preact/hooks';

import type { AdminSystemResponse, TeamInfoResponse } from '@quarry/contracts';

import { Button, ErrorMessage, Field, PageTitle } from '../components/ui';
import { ApiClient } from '../lib/api.client';
import { useConsole } from '../lib/console-context';
import { navigate } from '../lib/router';

/**
 * Sign in with a team API key (the team pages) and/or the deployment's ADMIN_API_KEY (the operator
 * pages). Each key is checked against the API before it is kept, in this tab's sessionStorage only.
 */
export function SignInPage({ needs }: { needs?: 'team' | 'admin' }) {
  const { session, setSession } = useConsole();
  const [teamKey, setTeamKey] = useState('');
  const [adminKey, setAdminKey] = useState('');
  const [teamError, setTeamError] = useState<unknown>();
  const [adminError, setAdminError] = useState<unknown>();
  const [busy, setBusy] = useState<'team' | 'admin'>();
  const [teamName, setTeamName] = useState<string>();

  const signInTeam = async (event: Event) => {
    event.preventDefault();
    setBusy('team');
    setTeamError(undefined);
    try {
      const key = teamKey.trim();
      const team = await new ApiClient(key).get<TeamInfoResponse>('/v2/team');
      setTeamName(team.data.name);
      setTeamKey('');
      setSession({ ...session, teamKey: key });
      navigate('/activity');
    } catch (error) {
      setTeamError(error);
    } finally {
      setBusy(undefined);
    }
  };

  const signInAdmin = async (event: Event) => {
    event.preventDefault();
    setBusy('admin');
    setAdminError(undefined);
    try {
      const key = adminKey.trim();
      await new ApiClient(key).get<AdminSystemResponse>('/admin/v1/system');
      setAdminKey('');
      setSession({ ...session, adminKey: key });
      navigate('/operator');
    } catch (error) {
      setAdminError(error);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div class="sign-in">
      <PageTitle title="Sign in">Sign in</PageTitle>
      <p>
        Keys stay in this browser tab (session storage) and travel only as an <code>Authorization</code>{' '}
        header to this server. Closing the tab or signing out forgets them.
      </p>
      {needs === 'team' && <p class="notice">This page needs a team API key.</p>}
      {needs === 'admin' && <p class="notice">The operator view needs the deployment's admin key.</p>}
      <div class="cards">
        <form class="card" onSubmit={signInTeam} aria-labelledby="team-sign-in">
          <h2 id="team-sign-in">Team</h2>
          <p>An API key of your team: playground, activity, agent runs, monitors and usage.</p>
          <Field
            label="API key"
            type="password"
            value={teamKey}
            onInput={setTeamKey}
            placeholder="fc-…"
            autoComplete="off"
            name="team-key"
          />
          <Button type="submit" variant="primary" busy={busy === 'team'} disabled={!teamKey.trim()}>
            Sign in with API key
          </Button>
          {session.teamKey && (
            <p class="hint">Signed in{teamName ? ` as team ${teamName}` : ''}; a new key replaces it.</p>
          )}
          <ErrorMessage error={teamError} />
        </form>
        <form class="card" onSubmit={signInAdmin} aria-labelledby="admin-sign-in">
          <h2 id="admin-sign-in">Operator</h2>
          <p>
            The deployment's <code>ADMIN_API_KEY</code>: teams, keys, credits, limits and system health.
          </p>
          <Field
            label="Admin key"
            type="password"
            value={adminKey}
            onInput={setAdminKey}
            autoComplete="off"
            name="admin-key"
          />
          <Button type="submit" variant="primary" busy={busy === 'admin'} disabled={!adminKey.trim()}>
            Sign in as operator
          </Button>
          {session.adminKey && <p class="hint">Signed in as operator; a new key replaces it.</p>}
          <ErrorMessage error={adminError} />
        </form>
      </div>
    </div>
  );
}
