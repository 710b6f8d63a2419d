import { defineModule } from '../module.ts';
import { checkinRoutes } from './checkin.routes.ts';

/** Daily check-in on the site day and make-ups, paid through the points ledger (decision 025). */
export const checkinModule = defineModule({ name: 'checkin', api: checkinRoutes });
