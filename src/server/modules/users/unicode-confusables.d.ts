// The package ships its declarations under a name TypeScript does not look for.
declare module 'unicode-confusables' {
  export interface ConfusablePoint {
    point: string;
    similarTo?: string;
  }
  export function isConfusing(input: string): boolean;
  export function confusables(input: string): ConfusablePoint[];
  /** Replaces each confusable character by its prototype and drops zero-width characters. */
  export function rectifyConfusion(input: string): string;
}
