import antd from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { catalogueOf, type LanguagePack } from '../pack.ts';

const files = import.meta.glob<{ default: Record<string, unknown> }>('./zh/*.json', { eager: true });

export default { catalogue: catalogueOf(files), antd, dayjs: 'zh-cn' } satisfies LanguagePack;
