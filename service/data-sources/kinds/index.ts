import type { DataSourceKind } from '../../../src/shared/data-source';
import { HTTP_SOURCE_KINDS } from './http-kinds';
import type { SourceKind } from './kind';
import { SQL_SOURCE_KINDS } from './sql-kinds';

/** Every kind of source, by name (src/shared/data-source.ts). */
export const SOURCE_KINDS: Readonly<Record<DataSourceKind, SourceKind>> = {
  ...HTTP_SOURCE_KINDS,
  ...SQL_SOURCE_KINDS,
};
