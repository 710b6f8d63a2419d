import type { EpubProblem } from '../../../../shared/lightnovel/epub.contract.ts';

/** A book refused, with its stable code and what the message names (an entry, a limit, a URL). */
export class EpubRejection extends Error {
  readonly problem: EpubProblem;
  readonly params: Record<string, string | number>;
  constructor(problem: EpubProblem, params: Record<string, string | number> = {}) {
    super(`${problem} ${JSON.stringify(params)}`);
    this.name = 'EpubRejection';
    this.problem = problem;
    this.params = params;
  }
}

export const refuse = (problem: EpubProblem, params?: Record<string, string | number>): never => {
  throw new EpubRejection(problem, params);
};

/** Shown in messages: names come from the uploader, so they are cut short and stripped of controls. */
export const shown = (name: string) => {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
};
