import type { Tool } from '../tools/types';
import type { Compactor } from './compactor';

interface CompactInput {
  focus?: string;
}

/**
 * Lets the model ask for a compaction itself (after finishing a large sub-task, say). It only
 * sets a flag: the compaction runs before the next request, once this call has its result.
 */
export function compactTool(compactor: Compactor): Tool<CompactInput> {
  return {
    name: 'Compact',
    description:
      'Summarises the conversation so far to free context, then continues from the summary. Use it when a large piece of work is finished and its details are no longer needed, ' +
      'or when the context is nearly full. Give `focus` to say what the summary must keep. Anything you still need should be stated in your own words before calling it.',
    inputSchema: { type: 'object', properties: { focus: { type: 'string', description: 'What the summary should concentrate on' } } },
    parse: (input) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'input must be an object' };
      const focus = (input as { focus?: unknown }).focus;
      if (focus !== undefined && focus !== null && typeof focus !== 'string') return { ok: false, error: '"focus" must be a string' };
      return { ok: true, value: typeof focus === 'string' && focus.trim() ? { focus: focus.trim() } : {} };
    },
    isReadOnly: () => true,
    summarize: (i) => (i.focus ? `focus: ${i.focus}` : 'the conversation'),
    paths: () => [],
    async call(i) {
      compactor.requested = i.focus;
      return { content: 'The conversation will be compacted before the next request; continue the task from the summary.' };
    },
  };
}
