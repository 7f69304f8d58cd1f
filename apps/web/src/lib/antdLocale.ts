import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import jaJP from 'antd/es/locale/ja_JP';
import type { Language } from '@gatehouse/contract';

export const ANTD_LOCALES = { en: enUS, zh: zhCN, ja: jaJP } satisfies Record<Language, unknown>;
