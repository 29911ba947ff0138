import { offlineAnswer } from './offline-answer.util';

describe('offlineAnswer', () => {
  const sut = offlineAnswer;

  describe('numbered labels', () => {
    const page = (numbers: readonly number[]) => ({
      url: 'https://spec.test/weights',
      markdown: `# Spec\n\n${numbers.map((n) => `Weight ${n}\n: ${n} g\n`).join('')}`,
      html: `<html><body><h1>Spec</h1><dl>${numbers.map((n) => `<dt>Weight ${n}</dt><dd>${n} g</dd>`).join('')}</dl></body></html>`,
    });

    it('answers from the label with the number asked, not one whose digits begin it', () => {
      // "1234" began "12345": a word's forms ("weigh", "weight"), read into numbers.
      const pages = [page([7, 1234, 12345, 123456, 40])];
      expect(sut(pages, 'What is weight 12345?')?.answer).toBe('12345 g');
      expect(sut(pages, 'What is weight 123456?')?.answer).toBe('123456 g');
      expect(sut(pages, 'What is weight 1234?')?.answer).toBe('1234 g');
    });

    it('does not answer with a shorter number for one the page does not have', () => {
      expect(sut([page([7, 9999, 40])], 'What is weight 99990?')?.answer).not.toBe('9999 g');
    });
  });
});
