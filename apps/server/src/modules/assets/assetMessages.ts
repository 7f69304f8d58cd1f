import { text, translator, type I18nText } from '@gatehouse/contract';

/** Messages of the assets module, in three languages. */
const M = {
  create_directly: text(
    'Cannot create asset directly, you should create a host or other',
    '不能直接创建资产, 你应该创建主机或其他资产',
    '資産を直接作成することはできません。ホストなどを作成してください',
  ),
  port_error: text('Port Error, please check', '端口错误，请检查', 'ポートエラーです。確認してください'),
  label_format: text(
    'Format error, correct format is name:value',
    '格式错误，正确格式为 name:value',
    '形式が正しくありません。正しい形式は name:value です',
  ),
  internal_platform: text('Internal platform', '内置平台', '組み込みプラットフォーム'),
  protocol_unsupported: text(
    'Protocol {name} is not supported by the platform',
    '平台不支持协议 {name}',
    'プラットフォームはプロトコル {name} をサポートしていません',
  ),
  protocol_required: text('Protocol {name} is required', '协议 {name} 是必填的', 'プロトコル {name} は必須です'),
  protocol_duplicate: text('Protocol {name} is given twice', '协议 {name} 重复', 'プロトコル {name} が重複しています'),
  protocol_primary: text(
    'Exactly one protocol must be primary',
    '必须有且仅有一个主协议',
    '主プロトコルはちょうど 1 つ必要です',
  ),
  platform_type_mismatch: text(
    'The new platform type ({new}) does not match the asset type ({old}); this asset was not changed',
    '新平台类型（{new}）与资产类型（{old}）不符，该资产未修改',
    '新しいプラットフォームの種類（{new}）が資産の種類（{old}）と一致しないため、この資産は変更されませんでした',
  ),
  platform_category: text(
    'The platform must be of category {category}',
    '平台必须属于类别 {category}',
    'プラットフォームのカテゴリは {category} である必要があります',
  ),
  domain_unsupported: text(
    'Network device, cloud and web assets cannot be put in a domain in a bulk update',
    '网络设备、云服务和 Web 资产不能批量设置网域',
    'ネットワークデバイス、クラウド、Web 資産は一括更新でドメインに入れることはできません',
  ),
  root_delete: text(
    "You can't delete the root node ({name})",
    '不能删除根节点 ({name})',
    'ルートノード（{name}）は削除できません',
  ),
  root_rename: text("You can't rename the root node", '不能重命名根节点', 'ルートノードの名前は変更できません'),
  node_has_assets: text(
    'Deletion failed and the node contains assets',
    '删除失败，节点包含资产',
    '削除に失敗しました。ノードに資産が含まれています',
  ),
  node_duplicate: text(
    'The same level node name cannot be the same',
    '同级别节点名字不能重复',
    '同じ階層のノード名は重複できません',
  ),
  node_path_required: text(
    'Give the node a value (its name) or a full_value (its path)',
    '请提供节点的 value（名称）或 full_value（路径）',
    'ノードの value（名前）または full_value（パス）を指定してください',
  ),
  node_path_exists: text(
    'A node with this path already exists',
    '该路径的节点已存在',
    'このパスのノードは既に存在します',
  ),
  node_path_segment: text(
    'Each name of the path must have no more than {n} characters',
    '路径中的每个名称不能超过 {n} 个字符',
    'パスの各名前は {n} 文字以下にしてください',
  ),
  node_path_depth: text(
    'A path may have at most {n} names below the organization',
    '路径在组织下最多只能有 {n} 级',
    'パスは組織の下に最大 {n} 階層までです',
  ),
  node_path_update: text(
    'A node is renamed through value and moved through children/add/, not through full_value',
    '节点通过 value 重命名，通过 children/add/ 移动，不能修改 full_value',
    'ノードの名前は value で、移動は children/add/ で変更します。full_value は変更できません',
  ),
  node_slash: text("Node name can't contain '/'", '节点名称不能包含 "/"', "ノード名に '/' を含めることはできません"),
  node_move_into_self: text(
    'A node cannot be moved under itself or its descendants',
    '不能将节点移动到自身或其子节点下',
    'ノードを自身またはその子孫の下に移動することはできません',
  ),
  new_node: text('New node', '新节点', '新しいノード'),
  proxy: text(
    'Proxy must start with http:// or https://',
    '代理必须以 http:// 或 https:// 开头',
    'プロキシは http:// または https:// で始まる必要があります',
  ),
  not_supported: text(
    'This function is not supported temporarily',
    '该功能暂时不支持',
    'この機能は一時的にサポートされていません',
  ),
  gateway_domain: text('A gateway needs a domain', '网关必须属于一个网域', 'ゲートウェイにはドメインが必要です'),
  favorite_one: text('Give exactly one asset', '请指定一个资产', '資産を 1 つ指定してください'),
  task_not_found: text('Task not found', '任务不存在', 'タスクが見つかりません'),
  action_invalid: text(
    '"{value}" is not a valid choice.',
    '“{value}” 不是合法选项。',
    '"{value}" は有効な選択肢ではありません。',
  ),
  ok: text('OK', '成功', '成功'),
} satisfies Record<string, I18nText>;

export type AssetMessage = keyof typeof M;

export const am = translator(M);
