/**
 * The embedded database's driver, chosen by the running Node: better-sqlite3 13 (Node-API, prebuilt
 * in its package) on Node 22 and newer, better-sqlite3 12 on Node 20, which 13 does not support.
 * Release 12 subclasses Node's raw `ObjectWrap`; from Node 24.19 that class removes a cleanup hook
 * in its destructor and aborts the process when a garbage-collected statement is finalised outside
 * a Node context (nodejs/node#65446): a service on Node 24 dies with SIGABRT at an idle GC. 13 is
 * built on node-addon-api and is not affected. Same API, same types (docs/decisions.md, "Node
 * versions"). Everything that opens a SQLite file imports the constructor from here.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export const SQLITE_DRIVER =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const SQLite: typeof BetterSqlite3 = createRequire(import.meta.url)(SQLITE_DRIVER);

export default SQLite;
