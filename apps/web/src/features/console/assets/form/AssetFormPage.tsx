import { useMemo } from 'react';
import { Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CategoryValue } from '@gatehouse/contract';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import type { FieldSpec } from '../../../../resource/FormField.tsx';
import { ResourceForm } from '../../../../resource/ResourceForm.tsx';
import { ResourcePathsContext, resourcePaths, type ResourcePaths } from '../../../../resource/resourcePaths.ts';
import { DeployOptionsInput } from '../../../settings/applets/DeployOptionsInput.tsx';
import { ENCRYPTED_FIELDS } from '../../../../resource/secrets.ts';
import type { ResourceObject } from '../../../../resource/types.ts';
import { useResourceObject } from '../../../../resource/useResourceObject.ts';
import { relatedId } from '../../../../resource/values.ts';
import { ASSET_LIST_PATH, assetDetailPath } from '../categories.ts';
import {
  ACCOUNT_SECRET_PATHS,
  AssetAccountsField,
  accountPayload,
  type AccountDraft,
} from '../fields/AssetAccountsField.tsx';
import { LabelsField, labelsRule, useLabels } from '../fields/LabelsField.tsx';
import { ProtocolsField, protocolsRule } from '../fields/ProtocolsField.tsx';
import {
  initialProtocols,
  markPrimary,
  protocolsPayload,
  type ProtocolChoice,
  type ProtocolRow,
} from '../fields/protocolRules.ts';
import { categoryForm } from './categoryFields.ts';
import { PlatformPicker } from './PlatformPicker.tsx';

export interface Platform extends ResourceObject {
  type: { value: string; label: string } | string;
  domain_enabled?: boolean;
  protocols_enabled?: boolean;
  protocols: ProtocolChoice[];
}

export interface AssetFormPageProps {
  category: CategoryValue;
  /** The API collection, e.g. `/api/v1/assets/hosts/`. */
  url: string;
  /** Gateways: the platform is `Gateway` and the domain comes from the query. */
  gateway?: boolean;
  /**
   * Applet hosts (Settings › Remote apps): the platform is `RemoteAppHost`, nodes, domain and labels
   * are hidden (the server keeps them in the system org), the deploy options and accounts settings added.
   */
  appletHost?: boolean;
}

const PATHS: ResourcePaths = {
  list: ASSET_LIST_PATH,
  create: ASSET_LIST_PATH,
  update: (id) => `${assetDetailPath(id)}/update`,
  detail: assetDetailPath,
};
const APPLET_HOSTS_PAGE = '/settings/applets/hosts';
const APPLET_HOST_PATHS = resourcePaths(APPLET_HOSTS_PAGE);
const typeOf = (p: Platform | undefined) => (p ? String(relatedId(p.type)) : undefined);
const choiceValue = (v: unknown) => String(relatedId(v) ?? '');
const ENCRYPTED = [...ENCRYPTED_FIELDS, ...ACCOUNT_SECRET_PATHS];

/** A clone creates the source's accounts again, each copying its secret on the server (`id`). */
function clonedAccounts(object: ResourceObject | undefined): AccountDraft[] {
  const list = Array.isArray(object?.accounts) ? (object.accounts as ResourceObject[]) : [];
  return list.map((a) => ({
    id: String(a.id),
    name: String(a.name),
    username: String(a.username),
    secret_type: choiceValue(a.secret_type),
    privileged: Boolean(a.privileged),
  }));
}

/** The platform a create/update page works with: `?platform=`, else the object's, else a default. */
function usePlatform(category: CategoryValue, fixed: string | undefined, ref: string | null | undefined) {
  const target = fixed ?? ref;
  return useQuery({
    queryKey: ['asset-form-platform', category, target ?? ''],
    queryFn: async () => {
      if (target) return http.get<Platform>(`/api/v1/assets/platforms/${encodeURIComponent(target)}/`);
      const page = await http.get<{ results: Platform[] }>('/api/v1/assets/platforms/', {
        params: { category, limit: 1, offset: 0 },
      });
      if (!page.results[0]) throw new Error('no platform');
      return page.results[0];
    },
  });
}

/** Create and update of one asset category. */
export function AssetFormPage({ category, url, gateway = false, appletHost = false }: AssetFormPageProps) {
  const { t } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const cloneFrom = id ? null : params.get('clone_from');
  const source = useResourceObject(url, id ?? cloneFrom);
  const platformRef = params.get('platform') ?? (source.data ? String(relatedId(source.data.platform)) : undefined);
  const waiting = Boolean(id ?? cloneFrom) && source.isPending;
  const fixedPlatform = gateway ? 'Gateway' : appletHost ? 'RemoteAppHost' : undefined;
  const platform = usePlatform(category, fixedPlatform, waiting ? null : platformRef);
  const labels = useLabels();
  const knownLabelIds = useMemo(() => new Set((labels.data?.results ?? []).map((l) => String(l.id))), [labels.data]);

  if (waiting || platform.isPending) return <Spin />;
  if (platform.error) return <Result status="error" title={errorMessage(platform.error, t)} />;
  const p = platform.data;
  const choices = p.protocols ?? [];
  const primaryName = choices.find((c) => c.primary)?.name;
  const extra = categoryForm(category, typeOf(p), t);
  const domainParam = params.get('domain');
  const secretTypes = [...new Set(choices.flatMap((c) => c.secret_types ?? []))];
  const required = { required: true, message: t('resource.form.required') };

  const fieldsMeta: Record<string, FieldSpec> = {
    platform: {
      render: () => <PlatformPicker category={category} disabled={Boolean(fixedPlatform)} />,
      disabled: Boolean(fixedPlatform),
      hidden: () => appletHost,
    },
    // Required in the form as in the reference; the API still takes an asset without nodes (org root).
    nodes: {
      url: '/api/v1/assets/nodes/',
      optionLabel: (o) => String(o.full_value ?? o.value ?? o.name),
      rules: appletHost ? [] : [{ ...required, type: 'array', min: 1 }],
      hidden: () => appletHost,
    },
    domain: {
      url: '/api/v1/assets/domains/',
      hidden: () => appletHost || p.domain_enabled === false,
      disabled: gateway && Boolean(domainParam),
    },
    protocols: {
      render: () => <ProtocolsField choices={choices} mode="asset" />,
      rules: [protocolsRule(t, choices, 'asset')],
      hidden: () => p.protocols_enabled === false || choices.length === 0,
    },
    labels: {
      render: () => <LabelsField />,
      rules: [labelsRule(t, () => knownLabelIds)],
      hidden: () => appletHost,
    },
    deploy_options: { render: () => <DeployOptionsInput /> },
    accounts: {
      render: () => <AssetAccountsField secretTypes={secretTypes} protocols={choices.map((c) => c.name)} />,
      hidden: (_v, ctx) => ctx.isUpdate,
    },
    ...extra.fieldsMeta,
  };
  const groups = [
    { title: 'assets.group.Basic', fields: ['name', 'address', 'platform', 'nodes', ...(extra.basic ?? [])] },
    { title: 'assets.group.Protocol', fields: ['protocols'] },
    ...(extra.groups ?? []),
    ...(appletHost
      ? [
          { title: 'applets.host.deployOptions', fields: ['deploy_options'] },
          { title: 'applets.host.accounts', fields: ['auto_create_accounts', 'accounts_create_amount'] },
        ]
      : []),
    { title: 'assets.group.Account', fields: ['accounts'] },
    { title: 'assets.group.Other', fields: ['domain', 'labels', 'is_active', 'comment'] },
  ];
  const node = params.get('node');
  const initial: Record<string, unknown> = {
    is_active: true,
    ...extra.initial,
    nodes: node ? [node] : [],
    protocols: initialProtocols(choices),
    accounts: [],
    ...(domainParam ? { domain: domainParam } : {}),
  };
  const domainRoute = (saved: ResourceObject) => {
    const d = relatedId(saved.domain) ?? domainParam;
    return d ? `/console/assets/domains/${String(d)}?activeTab=GatewayList` : '/console/assets/domains/';
  };

  return (
    <ResourcePathsContext.Provider value={appletHost ? APPLET_HOST_PATHS : PATHS}>
      <ResourceForm
        key={`${id ?? 'new'}:${cloneFrom ?? ''}:${String(p.id)}`}
        url={url}
        id={id}
        groups={groups}
        fieldsMeta={fieldsMeta}
        initial={initial}
        encryptedFields={ENCRYPTED}
        afterGetFormValue={(values, object) => ({
          ...values,
          platform: String(p.id),
          // A changed platform starts from its own protocols; otherwise the object's, marked with the primary.
          protocols:
            object && String(relatedId(object.platform)) === String(p.id) && Array.isArray(object.protocols)
              ? markPrimary(object.protocols as ProtocolRow[], primaryName)
              : initialProtocols(choices),
          accounts: id ? [] : clonedAccounts(object),
        })}
        cleanValues={(values) => ({
          ...values,
          ...(Array.isArray(values.protocols)
            ? { protocols: protocolsPayload(values.protocols as ProtocolRow[], false) }
            : {}),
          ...(Array.isArray(values.accounts)
            ? { accounts: (values.accounts as AccountDraft[]).map(accountPayload) }
            : {}),
        })}
        successRoute={(saved, ctx) =>
          appletHost
            ? `${APPLET_HOSTS_PAGE}/${String(saved.id)}`
            : gateway
              ? domainRoute(saved)
              : ctx.isUpdate
                ? assetDetailPath(saved.id)
                : `${ASSET_LIST_PATH}?order=-date_updated`
        }
      />
    </ResourcePathsContext.Provider>
  );
}
