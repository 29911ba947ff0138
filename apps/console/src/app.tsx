import { useMemo, useState } from 'preact/hooks';

import { ApiClient } from './lib/api.client';
import { Console } from './lib/console-context';
import { href, type Route, useRoute } from './lib/router';
import { loadSession, saveSession, type Session } from './lib/session';
import { ActivityPage } from './pages/activity.page';
import { AgentPage, AgentsPage } from './pages/agents.page';
import { JobPage } from './pages/job.page';
import { MonitorCheckPage, MonitorPage, MonitorsPage } from './pages/monitors.page';
import { OperatorPage } from './pages/operator.page';
import { PlaygroundPage } from './pages/playground.page';
import { SignInPage } from './pages/sign-in.page';
import { UsagePage } from './pages/usage.page';

interface NavItem {
  path: string;
  label: string;
  needs: 'team' | 'admin';
}

const NAV: NavItem[] = [
  { path: '/playground', label: 'Playground', needs: 'team' },
  { path: '/activity', label: 'Activity', needs: 'team' },
  { path: '/agents', label: 'Agent runs', needs: 'team' },
  { path: '/monitors', label: 'Monitors', needs: 'team' },
  { path: '/usage', label: 'Usage', needs: 'team' },
  { path: '/operator', label: 'Operator', needs: 'admin' },
];

function view(route: Route, session: Session) {
  const [first, second, third, fourth] = route.segments;
  if (first === 'sign-in' || (!session.teamKey && !session.adminKey)) return <SignInPage />;
  if (first === 'operator') return session.adminKey ? <OperatorPage /> : <SignInPage needs="admin" />;
  if (!session.teamKey) return first ? <SignInPage needs="team" /> : <OperatorPage />;
  switch (first) {
    case 'playground':
      return <PlaygroundPage operation={second} />;
    case 'jobs':
      return second ? <JobPage id={second} /> : <ActivityPage query={route.query} />;
    case 'agents':
      return second ? <AgentPage id={second} /> : <AgentsPage />;
    case 'monitors':
      if (second && third === 'checks' && fourth)
        return <MonitorCheckPage monitorId={second} checkId={fourth} />;
      return second ? <MonitorPage id={second} /> : <MonitorsPage />;
    case 'usage':
      return <UsagePage />;
    default:
      return <ActivityPage query={route.query} />;
  }
}

/** The console shell: session, navigation and the current view (hash routing). */
export function App() {
  const [session, setSessionState] = useState<Session>(() => loadSession());
  const route = useRoute();
  const context = useMemo(
    () => ({
      session,
      team: session.teamKey ? new ApiClient(session.teamKey) : undefined,
      admin: session.adminKey ? new ApiClient(session.adminKey) : undefined,
      setSession: (next: Session) => {
        saveSession(next);
        setSessionState(next);
      },
    }),
    [session],
  );
  const signedIn = !!(session.teamKey || session.adminKey);
  const items = NAV.filter((item) => (item.needs === 'team' ? session.teamKey : session.adminKey));
  const current = `/${route.segments[0] ?? (session.teamKey ? 'activity' : 'operator')}`;
  const active = (path: string) => current === path || (path === '/activity' && current === '/jobs');
  return (
    <Console.Provider value={context}>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href(signedIn ? current : '/sign-in')}>
          Quarry console
        </a>
        {signedIn && (
          <nav aria-label="Console">
            <ul>
              {items.map((item) => (
                <li key={item.path}>
                  <a href={href(item.path)} aria-current={active(item.path) ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
              <li>
                <a href={href('/sign-in')} aria-current={current === '/sign-in' ? 'page' : undefined}>
                  Keys
                </a>
              </li>
            </ul>
          </nav>
        )}
        {signedIn && (
          <button type="button" class="button secondary sign-out" onClick={() => context.setSession({})}>
            Sign out
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {view(route, session)}
      </main>
    </Console.Provider>
  );
}
