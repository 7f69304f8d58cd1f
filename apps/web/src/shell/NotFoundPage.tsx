import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <Result status="404" title="404" subTitle={t('route.NotFound')} extra={<Link to="/"><Button type="primary">{t('shell.home')}</Button></Link>} />;
}
