import { parsePrompt, splitClauses } from './prompt-parser';

const stepsOf = (prompt: string) => {
  const outcome = parsePrompt(prompt);
  if (!outcome.ok) throw new Error(`not understood: ${outcome.clause}`);
  return outcome.plan.steps;
};

describe('offline prompt parser', () => {
  it('reads clicks by visible text', () => {
    expect(stepsOf('click Sign in')).toEqual([{ kind: 'click', target: 'Sign in' }]);
    expect(stepsOf('Click on the "Load more" button.')).toEqual([{ kind: 'click', target: 'Load more' }]);
    expect(stepsOf('tap #menu')).toEqual([{ kind: 'click', target: '#menu' }]);
  });

  it('reads typing into a described field, quoted or not', () => {
    expect(stepsOf('type hello into the search box')).toEqual([
      { kind: 'type', text: 'hello', target: 'search box' },
    ]);
    expect(stepsOf('Enter "salt and pepper" in the name field')).toEqual([
      { kind: 'type', text: 'salt and pepper', target: 'name field' },
    ]);
    expect(stepsOf('fill the email field with ada@example.com')).toEqual([
      { kind: 'type', text: 'ada@example.com', target: 'email field' },
    ]);
    expect(stepsOf('search for laptops')).toEqual([
      { kind: 'type', text: 'laptops', target: 'search' },
      { kind: 'press', key: 'Enter' },
    ]);
  });

  it('reads keys, scrolling, waits, screenshots and navigation', () => {
    expect(stepsOf('press Enter')).toEqual([{ kind: 'press', key: 'Enter' }]);
    expect(stepsOf('hit the escape key')).toEqual([{ kind: 'press', key: 'Escape' }]);
    expect(stepsOf('scroll down')).toEqual([{ kind: 'scroll', direction: 'down' }]);
    expect(stepsOf('scroll to the top')).toEqual([{ kind: 'scroll', direction: 'up' }]);
    expect(stepsOf('wait 2 seconds')).toEqual([{ kind: 'wait', milliseconds: 2_000 }]);
    expect(stepsOf('wait 500 ms')).toEqual([{ kind: 'wait', milliseconds: 500 }]);
    expect(stepsOf('take a screenshot')).toEqual([{ kind: 'screenshot' }]);
    expect(stepsOf('go to https://example.com/a?b=1')).toEqual([
      { kind: 'goto', url: 'https://example.com/a?b=1' },
    ]);
    expect(stepsOf('open example.org/docs')).toEqual([{ kind: 'goto', url: 'https://example.org/docs' }]);
  });

  it('reads questions and extraction requests as page-text answers', () => {
    expect(stepsOf('What is the heading?')).toEqual([
      { kind: 'extract', what: 'heading', question: 'What is the heading?' },
    ]);
    expect(stepsOf('extract the page title')).toEqual([
      { kind: 'extract', what: 'title', question: 'extract the page title' },
    ]);
    expect(stepsOf('list the links')).toEqual([
      { kind: 'extract', what: 'links', question: 'list the links' },
    ]);
    expect(stepsOf('Is the order confirmed?')).toEqual([
      { kind: 'extract', what: 'text', question: 'Is the order confirmed?' },
    ]);
  });

  it('splits a prompt into steps on then, commas, "and" before a command, and sentence ends, never inside quotes', () => {
    expect(splitClauses('type "a, then b" into name, then click Send and read the result')).toEqual([
      'type "a, then b" into name',
      'click Send',
      'read the result',
    ]);
    expect(stepsOf('Type Ada into Your name. Click Send message; what does the page say?')).toEqual([
      { kind: 'type', text: 'Ada', target: 'Your name' },
      { kind: 'click', target: 'Send message' },
      { kind: 'extract', what: 'text', question: 'what does the page say?' },
    ]);
    expect(stepsOf('click Salt and Pepper')).toEqual([{ kind: 'click', target: 'Salt and Pepper' }]);
  });

  it('reports the clause it cannot read', () => {
    expect(parsePrompt('click Send, then make the page prettier')).toEqual({
      ok: false,
      clause: 'make the page prettier',
    });
    expect(parsePrompt('   ')).toEqual({ ok: false, clause: '' });
    expect(parsePrompt('go to javascript:alert(1)')).toEqual({
      ok: false,
      clause: 'go to javascript:alert(1)',
    });
  });
});
