import type { TargetDefinition } from '../../platform/targets/targets.ts';

export const lightnovelTargets: TargetDefinition[] = [];
