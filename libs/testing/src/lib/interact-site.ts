import { type FixtureServer, html, startFixtureServer } from './fixture-server';

/** Pages for interact sessions: a form, a counter whose state lives only in the DOM, a second page. */
export async function startInteractSite(host = '127.0.0.1'): Promise<FixtureServer> {
  return startFixtureServer(
    {
      '/form': html(`<!doctype html><html><head><title>Contact form</title></head><body>
<h1>Contact us</h1>
<form onsubmit="return false">
  <label for="name">Your name</label> <input id="name" name="name" type="text">
  <input id="q" name="q" type="search" placeholder="Search the site">
  <button id="send" type="button">Send message</button>
</form>
<p id="result"></p>
<script>
document.getElementById('send').addEventListener('click', () => {
  document.getElementById('result').textContent = 'Hello, ' + document.getElementById('name').value + '!';
  localStorage.setItem('greeted', document.getElementById('name').value);
});
</script>
</body></html>`),
      '/counter': html(`<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1>
<button id="inc" type="button">Increment</button> <span id="count">0</span>
<script>
let count = 0;
document.getElementById('inc').addEventListener('click', () => { count += 1; document.getElementById('count').textContent = String(count); });
</script>
</body></html>`),
      '/second': html(
        '<!doctype html><html><head><title>Second page</title></head><body><h1>The second page</h1><p>Reached by navigation.</p></body></html>',
      ),
    },
    host,
  );
}
