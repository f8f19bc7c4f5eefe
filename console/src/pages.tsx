import type { IconDefinition } from '@fortawesome/fontawesome-common-types';
import {
  faBell,
  faChartColumn,
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

export interface Page {
  /** The path under /console/ (react-router syntax). */
  path: string;
  component: LazyExoticComponent<ComponentType>;
  /** Pages of the navigation have a label and an icon; the others are reached from them. */
  nav?: { label: string; icon: IconDefinition };
}

/** Every page of the console, each loaded on demand so the first bundle stays small. */
export const PAGES: readonly Page[] = [
  {
    path: 'screens',
    component: lazy(() => import('./pages/screens-page')),
    nav: { label: 'Screens', icon: faTv },
  },
  { path: 'screens/:tag', component: lazy(() => import('./pages/screen-page')) },
  {
    path: 'groups',
    component: lazy(() => import('./pages/groups-page')),
    nav: { label: 'Groups', icon: faLayerGroup },
  },
  { path: 'groups/:id', component: lazy(() => import('./pages/group-page')) },
  {
    path: 'playlists',
    component: lazy(() => import('./pages/playlists-page')),
    nav: { label: 'Playlists', icon: faListOl },
  },
  { path: 'playlists/:id', component: lazy(() => import('./pages/playlist-page')) },
  {
    path: 'boards',
    component: lazy(() => import('./pages/boards-page')),
    nav: { label: 'Boards', icon: faTableCellsLarge },
  },
  { path: 'boards/:id', component: lazy(() => import('./pages/board-page')) },
  {
    path: 'media',
    component: lazy(() => import('./pages/media-page')),
    nav: { label: 'Media', icon: faImages },
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
  },
  {
    path: 'channels',
    component: lazy(() => import('./pages/channels-page')),
    nav: { label: 'Channels', icon: faHashtag },
  },
  {
    path: 'emergency',
    component: lazy(() => import('./pages/emergency-page')),
    nav: { label: 'Emergency', icon: faTriangleExclamation },
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
  },
  { path: 'flows/:id', component: lazy(() => import('./pages/flows/flow-page')) },
  {
    path: 'scripts',
    component: lazy(() => import('./pages/scripts-page')),
    nav: { label: 'Scripts', icon: faCode },
  },
  { path: 'scripts/:id', component: lazy(() => import('./pages/script-page')) },
  {
    path: 'data-sources',
    component: lazy(() => import('./pages/data-sources-page')),
    nav: { label: 'Data sources', icon: faDatabase },
  },
  { path: 'data-sources/:id', component: lazy(() => import('./pages/data-sources/source-page')) },
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
];

/** Where `/console/` (and `/`) leads. */
export const HOME = 'screens';
