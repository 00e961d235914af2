import { migration0001 } from './0001-init';
import { migration0002 } from './0002-answers';
import { migration0003 } from './0003-bench';
import { migration0004 } from './0004-sections';
import { migration0005 } from './0005-watching';
import { migration0006 } from './0006-pages';
import { migration0007 } from './0007-collection-names';
import { migration0008 } from './0008-run-scope';
import { migration0009 } from './0009-conversations';
import { migration0010 } from './0010-vector-quantization';
import { migration0011 } from './0011-vector-quantization-churn';
import { migration0012 } from './0012-vector-quantization-depth';
import { migration0013 } from './0013-folder-column';
import { migration0014 } from './0014-searchable-text';
import { migration0015 } from './0015-turn-scope';
import { migration0016 } from './0016-searchable-text-fences';
import { migration0017 } from './0017-keyword-statistics';
import { migration0018 } from './0018-keyword-index-builds';
import { migration0019 } from './0019-reread-undecodable';
import type { Migration } from './types';

/** Every migration, in order. Add a new file and list it here; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0010, migration0011, migration0012, migration0013, migration0014, migration0015, migration0016, migration0017, migration0018, migration0019];
