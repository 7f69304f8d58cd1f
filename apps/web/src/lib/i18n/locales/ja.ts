import antd from 'antd/es/locale/ja_JP';
import 'dayjs/locale/ja';
import { catalogueOf, type LanguagePack } from '../pack.ts';

const files = import.meta.glob<{ default: Record<string, unknown> }>('./ja/*.json', { eager: true });

export default { catalogue: catalogueOf(files), antd, dayjs: 'ja' } satisfies LanguagePack;
