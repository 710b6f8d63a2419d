import { defineModule } from '../module.ts';
import { siteRoutes } from './site.routes.ts';

/** The public site configuration the client shell reads. */
export const siteModule = defineModule({ name: 'site', api: siteRoutes });
