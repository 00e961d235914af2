/**
 * The preload: exposes window.quire, generated from the contract, and nothing else. Bundled to
 * one CommonJS file (dist/electron/preload.cjs) because a sandboxed preload can require only
 * 'electron'.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { METHOD_NAMES } from '../../shared/contract';
import { buildBridge } from './expose';

contextBridge.exposeInMainWorld('quire', buildBridge(METHOD_NAMES, ipcRenderer, webUtils));
