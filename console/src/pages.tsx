import type { IconDefinition } from '@fortawesome/fontawesome-common-types';
import {
  faBell,
  faChartColumn,
  faClockRotateLeft,
  faClone,
  faCloudArrowUp,
  faCode,
  faDatabase,
  faDiagramProject,
  faHashtag,
  faImages,
  faKey,
  faLayerGroup,
  faListOl,
  faTableCellsLarge,
  faTowerBroadcast,
  faTriangleExclamation,
  faTv,
  faUsers,
} from '@fortawesome/free-solid-svg-icons';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { UserRole } from '../../src/shared/user';

export interface Page {
  /** The path under /console/ (react-router syntax). */
  path: string;
  component: LazyExoticComponent<ComponentType>;
  /** Pages of the navigation have a label and an icon; the others are reached from them. */
  nav?: { label: string; icon: IconDefinition };
  /**
   * The roles it is in the navigation of, when not every role's: the service refuses the others
   * (the audit trail is admins', scripts and data sources admins' and editors').
   */
  readers?: readonly UserRole[];
  /** Whose changes the page makes (session.tsx, WriteArea): an admin's when absent. */
  area?: 'content' | 'publishing';
}

/** Every page of the console, each loaded on demand so the first bundle stays small. */
export const PAGES: readonly Page[] = [
  {
    path: 'screens',
    component: lazy(() => import('./pages/screens-page')),
    nav: { label: 'Screens', icon: faTv },
    area: 'publishing',
  },
  { path: 'screens/:tag', component: lazy(() => import('./pages/screen-page')), area: 'publishing' },
  {
    path: 'groups',
    component: lazy(() => import('./pages/groups-page')),
    nav: { label: 'Groups', icon: faLayerGroup },
    area: 'publishing',
  },
  { path: 'groups/:id', component: lazy(() => import('./pages/group-page')), area: 'publishing' },
  {
    path: 'sync-groups',
    component: lazy(() => import('./pages/sync-groups-page')),
    nav: { label: 'Sync groups', icon: faClone },
    area: 'publishing',
  },
  {
    path: 'playlists',
    component: lazy(() => import('./pages/playlists-page')),
    nav: { label: 'Playlists', icon: faListOl },
    area: 'publishing',
  },
  { path: 'playlists/:id', component: lazy(() => import('./pages/playlist-page')), area: 'publishing' },
  {
    path: 'boards',
    component: lazy(() => import('./pages/boards-page')),
    nav: { label: 'Boards', icon: faTableCellsLarge },
    area: 'content',
  },
  { path: 'boards/:id', component: lazy(() => import('./pages/board-page')), area: 'content' },
  {
    path: 'media',
    component: lazy(() => import('./pages/media-page')),
    nav: { label: 'Media', icon: faImages },
    area: 'content',
  },
  {
    path: 'reports',
    component: lazy(() => import('./pages/reports-page')),
    nav: { label: 'Reports', icon: faChartColumn },
  },
  {
    path: 'notifications',
    component: lazy(() => import('./pages/notifications-page')),
    nav: { label: 'Notifications', icon: faBell },
    area: 'publishing',
  },
  {
    path: 'channels',
    component: lazy(() => import('./pages/channels-page')),
    nav: { label: 'Channels', icon: faHashtag },
    area: 'content',
  },
  {
    path: 'emergency',
    component: lazy(() => import('./pages/emergency-page')),
    nav: { label: 'Emergency', icon: faTriangleExclamation },
    area: 'publishing',
  },
  {
    path: 'alerts',
    component: lazy(() => import('./pages/alerts-page')),
    nav: { label: 'Alerts', icon: faTowerBroadcast },
  },
  {
    path: 'flows',
    component: lazy(() => import('./pages/flows-page')),
    nav: { label: 'Flows', icon: faDiagramProject },
    area: 'content',
  },
  { path: 'flows/:id', component: lazy(() => import('./pages/flows/flow-page')), area: 'content' },
  {
    path: 'scripts',
    component: lazy(() => import('./pages/scripts-page')),
    nav: { label: 'Scripts', icon: faCode },
    area: 'content',
    readers: ['admin', 'editor'],
  },
  { path: 'scripts/:id', component: lazy(() => import('./pages/script-page')), area: 'content' },
  {
    path: 'data-sources',
    component: lazy(() => import('./pages/data-sources-page')),
    nav: { label: 'Data sources', icon: faDatabase },
    area: 'content',
    readers: ['admin', 'editor'],
  },
  {
    path: 'data-sources/:id',
    component: lazy(() => import('./pages/data-sources/source-page')),
    area: 'content',
  },
  {
    path: 'releases',
    component: lazy(() => import('./pages/releases/releases-page')),
    nav: { label: 'Player releases', icon: faCloudArrowUp },
  },
  {
    path: 'tokens',
    component: lazy(() => import('./pages/tokens-page')),
    nav: { label: 'Tokens', icon: faKey },
  },
  {
    path: 'users',
    component: lazy(() => import('./pages/users-page')),
    nav: { label: 'Users', icon: faUsers },
  },
  {
    path: 'audit',
    component: lazy(() => import('./pages/audit-page')),
    nav: { label: 'Audit trail', icon: faClockRotateLeft },
    readers: ['admin'],
  },
];

/** Where `/console/` (and `/`) leads. */
export const HOME = 'screens';
