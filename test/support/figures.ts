import type { TestContext } from 'vitest';

/** A reliability check's measured figures, printed at the end of the run next to the pass/fail line. */
export type Figures = Record<string, number | string>;

declare module 'vitest' {
  interface TaskMeta {
    figures?: Figures;
  }
}

/**
 * Attaches figures to the running test (`it('…', async ({ task }) => { …; recordFigures(task, { sent: n }) })`).
 * The summary reporter prints them, so CI logs show what a check measured, not only that it passed.
 */
export function recordFigures(task: TestContext['task'], figures: Figures): void {
  task.meta.figures = { ...task.meta.figures, ...figures };
}

/** True under `pnpm test:stress`: the reliability checks run the same code with larger counts. */
export const STRESS = process.env.RAILYARD_STRESS === '1';

/** `count` in CI, `stressCount` under `pnpm test:stress`. */
export function scaled(count: number, stressCount: number): number {
  return STRESS ? stressCount : count;
}
