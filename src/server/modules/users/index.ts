import { defineModule } from '../module.ts';
import { userRoutes } from './users.routes.ts';
import { userTarget } from './users.targets.ts';

/** Accounts' profiles and settings; users as targets (their space). */
export const usersModule = defineModule({ name: 'users', api: userRoutes, targets: [userTarget] });
