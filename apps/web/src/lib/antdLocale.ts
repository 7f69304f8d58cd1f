import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import jaJP from 'antd/locale/ja_JP';
import type { Language } from '@gatehouse/contract';

export const ANTD_LOCALES = { en: enUS, zh: zhCN, ja: jaJP } satisfies Record<Language, unknown>;
