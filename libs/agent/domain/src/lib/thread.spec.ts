import { agentStatusBody } from './agent-webhooks';
import { planningPrompt } from './model-planner';
import { initialMemory } from './planner';
import { chatMessage, conversationContext, threadRunStatus } from './thread';

describe('agent threads', () => {
  it('replies in text: the answer of an answer-shaped result, else the result as JSON', () => {
    expect(chatMessage({ answer: 'It costs $49.', sources: ['https://a.example/'] })).toBe('It costs $49.');
    expect(chatMessage({ answer: 'x', price: 49 })).toBe(JSON.stringify({ answer: 'x', price: 49 }, null, 2));
    expect(chatMessage({ name: 'Pro', price: 49 })).toContain('"price": 49');
    expect(chatMessage('plain')).toBe('plain');
    expect(chatMessage(undefined)).toBe('null');
  });

  it('lists a run as processing until it ends, then by its outcome', () => {
    expect(threadRunStatus('running', null)).toBe('processing');
    expect(threadRunStatus('cancelling', null)).toBe('processing');
    expect(threadRunStatus('completed', 'succeeded')).toBe('succeeded');
    expect(threadRunStatus('failed', 'credit_limit_reached')).toBe('credit_limit_reached');
    expect(threadRunStatus('failed', 'cancelled')).toBe('cancelled');
  });

  it('gives a follow-up the last ten turns, replies cut to 2,000 characters', () => {
    expect(conversationContext(undefined)).toBeUndefined();
    expect(conversationContext([])).toBeUndefined();
    const turns = Array.from({ length: 12 }, (_, index) => ({
      prompt: `question ${index + 1}`,
      reply: index === 11 ? 'r'.repeat(5_000) : `answer ${index + 1}`,
    }));
    const context = conversationContext(turns) ?? '';
    expect(context).not.toContain('question 2\n');
    expect(context).toContain('User: question 3\nAssistant: answer 3');
    expect(context).toContain(`Assistant: ${'r'.repeat(2_000)}`);
    expect(context).not.toContain('r'.repeat(2_001));
  });

  it('starts a follow-up from the given URLs first, then the pages its thread read, with the conversation', () => {
    const memory = initialMemory(['https://a.example/new'], 'deterministic', {
      urls: ['https://a.example/old', 'https://a.example/new', 'https://a.example/old#top'],
      conversation: [{ prompt: 'p', reply: 'r' }],
    });
    expect(memory.candidates).toEqual([
      { url: 'https://a.example/new', reason: 'given', score: 1 },
      { url: 'https://a.example/old', reason: 'thread', score: 1 },
    ]);
    expect(memory.conversation).toEqual([{ prompt: 'p', reply: 'r' }]);
    expect(initialMemory([], 'deterministic').conversation).toBeUndefined();
  });

  it('puts the earlier turns before the task of a planning prompt', () => {
    const memory = initialMemory([], 'model', {
      urls: ['https://a.example/chair'],
      conversation: [{ prompt: 'What is the chair made of?', reply: 'Oak.' }],
    });
    const prompt = planningPrompt({
      prompt: 'Is it solid?',
      memory,
      candidates: memory.candidates,
      maxUrls: 2,
    });
    expect(prompt.indexOf('User: What is the chair made of?\nAssistant: Oak.')).toBeGreaterThan(-1);
    expect(prompt.indexOf('User: What is the chair made of?')).toBeLessThan(
      prompt.indexOf('TASK: Is it solid?'),
    );
    expect(prompt).toContain('- https://a.example/chair (thread)');
  });

  it('answers a completed chat run in message (data only with a schema), with its thread and turn', () => {
    const run = {
      state: 'completed' as const,
      model: 'spark-2',
      expiresAt: new Date(0),
      creditsSpent: 3,
      errorMessage: null,
      data: { answer: 'Grippy.', sources: [] },
      threadId: 't-1',
      threadTurn: 2,
      mode: 'chat' as const,
    };
    const body = agentStatusBody(run);
    expect(body).toMatchObject({
      status: 'completed',
      message: 'Grippy.',
      threadId: 't-1',
      threadTurn: 2,
      mode: 'chat',
    });
    expect(body.data).toBeUndefined();
    expect(agentStatusBody({ ...run, hasSchema: true }).data).toEqual(run.data);
    expect(agentStatusBody({ ...run, mode: 'extract' })).not.toHaveProperty('message');
  });
});
