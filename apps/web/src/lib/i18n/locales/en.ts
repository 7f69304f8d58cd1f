import antd from 'antd/es/locale/en_US';
import { catalogueOf, type LanguagePack } from '../pack.ts';

const files = import.meta.glob<{ default: Record<string, unknown> }>('./en/*.json', { eager: true });

export default { catalogue: catalogueOf(files), antd, dayjs: 'en' } satisfies LanguagePack;
