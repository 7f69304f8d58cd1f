import { ASSET_CATEGORIES, type Language, type TypeConstraints } from '@gatehouse/contract';
import type { ProtocolChoice, ProtocolRow } from '../fields/protocolRules.ts';

/** Category and type choices of the platform form (categories), in a language. */
export function categoryOptions(lang: string) {
  return ASSET_CATEGORIES.map((c) => ({ value: c.value, label: c.label[lang as Language] ?? c.label.en }));
}

export function typeOptions(category: string | undefined, lang: string) {
  const cat = ASSET_CATEGORIES.find((c) => c.value === category);
  return (cat?.types ?? []).map((t) => ({ value: t.value, label: t.label[lang as Language] ?? t.label.en }));
}

export function constraintsOf(category: string | undefined, type: string | undefined): TypeConstraints | undefined {
  return ASSET_CATEGORIES.find((c) => c.value === category)?.types.find((t) => t.value === type)?.constraints;
}

/** The protocols a platform of this type may offer (its constraints), any known protocol for custom types. */
export function platformProtocolChoices(
  category: string | undefined,
  type: string | undefined,
  current: readonly ProtocolRow[] = [],
): ProtocolChoice[] {
  const cons = constraintsOf(category, type);
  const list: ProtocolChoice[] = cons
    ? cons.protocols.map((p) => ({ name: p.name, port: p.port, required: p.required, default: p.default }))
    : [
        ...new Map(
          ASSET_CATEGORIES.flatMap((c) => c.types.flatMap((t) => t.constraints.protocols)).map((p) => [
            p.name,
            { name: p.name, port: p.port },
          ]),
        ).values(),
      ];
  for (const r of current)
    if (!list.some((c) => c.name === r.name)) list.push({ name: r.name, port: Number(r.port) || 0 });
  return list;
}

/** A new platform's protocols: the type's required and default ones, the first primary. */
export function defaultPlatformProtocols(category: string | undefined, type: string | undefined): ProtocolRow[] {
  const cons = constraintsOf(category, type);
  const picked = (cons?.protocols ?? []).filter((p, i) => i === 0 || p.required || p.default);
  return picked.map((p, i) => ({
    name: p.name,
    port: p.port,
    primary: i === 0,
    required: Boolean(p.required),
    default: Boolean(p.default),
    public: true,
    setting: {},
  }));
}
