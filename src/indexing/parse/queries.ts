import type { CodeLanguage } from "../../core/types.js";

/**
 * tree-sitter queries, one per language, with a shared capture vocabulary read by extract.ts:
 * - `@def.<kind>` the definition node with `@name` its name (`@recv` a Go method's receiver type);
 * - `@call` a call with `@callee` the called name and optionally `@receiver`;
 * - `@import` an import statement, decoded per language in imports.ts;
 * - `@require` a `require("x")` / `import("x")` call with `@source` the module string.
 * Queries run in C inside tree-sitter, so only the nodes we need ever cross into JavaScript.
 * Alternatives are written as one pattern with `[...]` where possible: fewer patterns make the
 * query cursor measurably faster (about 15% on sympy).
 */

const PYTHON = `
(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class
(call function: [
  (identifier) @callee
  (attribute object: (_) @receiver attribute: (identifier) @callee)]) @call
[(import_statement) (import_from_statement)] @import
`;

const JS_COMMON = `
(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(method_definition name: (_) @name) @def.method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @def.function
(call_expression function: [
  (identifier) @callee
  (member_expression object: (_) @receiver property: (_) @callee)]) @call
(new_expression constructor: [
  (identifier) @callee
  (member_expression object: (_) @receiver property: (_) @callee)]) @call
(import_statement) @import
(export_statement source: (_)) @import
((call_expression function: (identifier) @_fn arguments: (arguments . (string (string_fragment) @source))) @require
  (#eq? @_fn "require"))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @source))) @require
`;

const JAVASCRIPT = `${JS_COMMON}
(class_declaration name: (identifier) @name) @def.class
(field_definition property: (_) @name value: [(arrow_function) (function_expression)]) @def.method
`;

const TYPESCRIPT = `${JS_COMMON}
(class_declaration name: (type_identifier) @name) @def.class
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(type_alias_declaration name: (type_identifier) @name) @def.type
(enum_declaration name: (identifier) @name) @def.enum
(internal_module name: (_) @name) @def.module
(function_signature name: (identifier) @name) @def.function
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(public_field_definition name: (_) @name value: [(arrow_function) (function_expression)]) @def.method
`;

const JAVA = `
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(method_invocation object: (_) @receiver name: (identifier) @callee) @call
(method_invocation !object name: (identifier) @callee) @call
(object_creation_expression type: (_) @callee) @call
(import_declaration) @import
`;

const GO = `
(function_declaration name: (identifier) @name) @def.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @recv
    (pointer_type (type_identifier) @recv)
    (generic_type type: (type_identifier) @recv)
    (pointer_type (generic_type type: (type_identifier) @recv))]))
  name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name type: [
  (type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type)
  (function_type) (channel_type) (generic_type)]) @def.type
(type_alias name: (type_identifier) @name) @def.type
(call_expression function: [
  (identifier) @callee
  (selector_expression operand: (_) @receiver field: (field_identifier) @callee)]) @call
(import_spec) @import
`;

const RUST = `
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type
(mod_item name: (identifier) @name) @def.module
(macro_definition name: (identifier) @name) @def.macro
(impl_item type: (_) @name) @def.impl
(call_expression function: [
  (identifier) @callee
  (field_expression value: (_) @receiver field: (field_identifier) @callee)
  (scoped_identifier path: (_) @receiver name: (identifier) @callee)
  (generic_function function: [
    (identifier) @callee
    (field_expression value: (_) @receiver field: (field_identifier) @callee)
    (scoped_identifier path: (_) @receiver name: (identifier) @callee)])]) @call
(macro_invocation macro: (identifier) @callee) @call
(use_declaration) @import
`;

/**
 * C and C++ name a function inside its declarator (`*f(void)`, `Foo::get() const`, `operator==`):
 * `@declarator` is read in extract.ts, which finds the name and the class it is qualified by.
 * Prototypes and in-class method declarations are `@decl.<kind>`: declarations without a body.
 * A qualified call (`ns::f()`, `a::Foo::make<T>()`) captures the `@qualified` name, split in
 * extract.ts; a member call its `@receiver`.
 */
const C_COMMON = `
(function_definition declarator: (_) @declarator) @def.function
(declaration declarator: [
  (function_declarator)
  (pointer_declarator declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator))])] @declarator) @decl.function
(type_definition type: [(struct_specifier body: (_)) (union_specifier body: (_))] declarator: (type_identifier) @name) @def.struct
(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(preproc_function_def name: (identifier) @name) @def.macro
(preproc_def name: (identifier) @name) @def.macro
(preproc_include) @import
`;

const C = `${C_COMMON}
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.struct
(call_expression function: [
  (identifier) @callee
  (field_expression argument: (_) @receiver field: (field_identifier) @callee)]) @call
`;

const CPP = `${C_COMMON}
(struct_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name body: (_)) @def.struct
(union_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name body: (_)) @def.struct
(class_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name body: (_)) @def.class
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @def.module
(alias_declaration name: (type_identifier) @name) @def.type
(concept_definition name: (identifier) @name) @def.type
(field_declaration declarator: [
  (function_declarator)
  (pointer_declarator declarator: (function_declarator))
  (reference_declarator (function_declarator))] @declarator) @decl.method
(declaration declarator: (reference_declarator (function_declarator)) @declarator) @decl.function
(call_expression function: [
  (identifier) @callee
  (field_expression argument: (_) @receiver field: [(field_identifier) @callee (template_method name: (field_identifier) @callee)])
  (qualified_identifier) @qualified
  (template_function name: (identifier) @callee)]) @call
(new_expression type: (_) @callee) @call
(using_declaration "namespace") @import
`;

/**
 * C#: namespaces (block and file-scoped, `A.B` split in extract.ts), types, methods and
 * constructors, local functions. `this.` and `base.` are anonymous nodes: the receiver is `_`.
 */
const CSHARP = `
[(namespace_declaration name: (_) @name) (file_scoped_namespace_declaration name: (_) @name)] @def.module
[(class_declaration name: (identifier) @name) (record_declaration name: (identifier) @name)] @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(delegate_declaration name: (identifier) @name) @def.type
[(method_declaration name: (identifier) @name) (constructor_declaration name: (identifier) @name)] @def.method
(local_function_statement name: (identifier) @name) @def.function
(invocation_expression function: [
  (identifier) @callee
  (generic_name . (identifier) @callee)
  (member_access_expression expression: _ @receiver name: [(identifier) @callee (generic_name . (identifier) @callee)])]) @call
(object_creation_expression type: (_) @callee) @call
(using_directive) @import
`;

/**
 * Ruby: modules, classes (`class A::B` split in extract.ts), methods and singleton methods. A call
 * without receiver or arguments is a bare identifier statement (`validate`); one inside an
 * expression cannot be told from a local variable and is left out. `require` and
 * `require_relative` are imports.
 */
const RUBY = `
(module name: [(constant) (scope_resolution)] @name) @def.module
(class name: [(constant) (scope_resolution)] @name) @def.class
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.method
(call receiver: (_) @receiver method: [(identifier) (constant)] @callee) @call
(call !receiver method: [(identifier) (constant)] @callee) @call
[(program (identifier) @callee) (body_statement (identifier) @callee) (block_body (identifier) @callee) (then (identifier) @callee) (else (identifier) @callee) (do (identifier) @callee)] @call
((call !receiver method: (identifier) @_fn arguments: (argument_list . (string))) @import
  (#any-of? @_fn "require" "require_relative" "load"))
`;

/** Shell: functions, commands (a call each), and `source` / `.` of another script as imports. */
const BASH = `
(function_definition name: (word) @name) @def.function
(command name: (command_name (word) @callee)) @call
((command name: (command_name (word) @_cmd)) @import (#any-of? @_cmd "source" "."))
`;

/**
 * PHP: namespaces (`namespace A\B;` holds the rest of its file), classes, traits, interfaces,
 * enums, functions and methods; function, method (`->`, `?->`) and static (`Foo::`, `self::`,
 * `parent::`) calls, `new`; `use` declarations and `require` / `include` as imports.
 */
const PHP = `
(namespace_definition name: (namespace_name) @name) @def.module
(class_declaration name: (name) @name) @def.class
(trait_declaration name: (name) @name) @def.trait
(interface_declaration name: (name) @name) @def.interface
(enum_declaration name: (name) @name) @def.enum
(function_definition name: (name) @name) @def.function
(method_declaration name: (name) @name) @def.method
(function_call_expression function: [(name) (qualified_name)] @callee) @call
[(member_call_expression object: (_) @receiver name: (name) @callee)
 (nullsafe_member_call_expression object: (_) @receiver name: (name) @callee)
 (scoped_call_expression scope: (_) @receiver name: (name) @callee)] @call
(object_creation_expression [(name) (qualified_name)] @callee) @call
[(namespace_use_declaration) (require_expression) (require_once_expression) (include_expression) (include_once_expression)] @import
`;

/**
 * Kotlin: the package (it holds its file), classes, objects, interfaces and enums (all
 * `class_declaration`, told apart in extract.ts), functions (extension functions take their
 * receiver type as qualifier), type aliases; calls plain and through a receiver; imports.
 */
const KOTLIN = `
(package_header (qualified_identifier) @name) @def.module
[(class_declaration name: (identifier) @name) (object_declaration name: (identifier) @name)] @def.class
(function_declaration name: (identifier) @name) @def.function
(type_alias type: (identifier) @name) @def.type
(call_expression . [
  (identifier) @callee
  (navigation_expression . (_) @receiver . (identifier) @callee .)]) @call
(import) @import
`;

/**
 * Scala: the package (a clause without braces holds its file), classes and objects (a companion
 * object is its class's other piece), traits, enums, types, functions; calls plain, through a
 * receiver and with type arguments, `new`; imports with their selectors.
 */
const SCALA = `
(package_clause name: (package_identifier) @name) @def.module
[(class_definition name: (identifier) @name) (object_definition name: (identifier) @name)] @def.class
(trait_definition name: (identifier) @name) @def.trait
(enum_definition name: (identifier) @name) @def.enum
(type_definition name: (type_identifier) @name) @def.type
[(function_definition name: (identifier) @name) (function_declaration name: (identifier) @name)] @def.function
(call_expression function: [
  (identifier) @callee
  (field_expression value: (_) @receiver field: (identifier) @callee)
  (generic_function function: [(identifier) @callee (field_expression value: (_) @receiver field: (identifier) @callee)])]) @call
(instance_expression . [(type_identifier) (generic_type) (stable_type_identifier)] @callee) @call
(import_declaration) @import
`;

/**
 * Swift: classes, actors, structs, enums and protocols (`class_declaration` told apart by its
 * keyword), extensions as the type's other pieces (`impl`, as Rust's), functions, initializers,
 * subscripts, computed properties (a getter's body is code, a SwiftUI view's `body` all of it),
 * protocol requirements, operators (`static func ==`), type aliases; calls plain, through a
 * receiver and of an implicit member (`.make()`, receiver `.`: the contextual type's, unknown
 * here), trailing closures included (a subscript, `items[i]`, is a call with brackets: no call),
 * and generic construction (`Box<Int>()`); imports.
 */
const SWIFT = `
(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name) @def.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @def.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @def.enum
(class_declaration declaration_kind: "extension" name: (_) @name) @def.impl
(protocol_declaration name: (type_identifier) @name) @def.interface
[(function_declaration name: [(simple_identifier) (custom_operator) (bang) "==" "!=" "===" "!==" "<" ">" "<=" ">=" "+" "-" "*" "/" "%" "+=" "-=" "*=" "/=" "%=" "<<" ">>" "&" "|" "^" "~" "++" "--"] @name)
 (protocol_function_declaration name: (simple_identifier) @name)] @def.function
[(init_declaration "init" @name) (deinit_declaration "deinit" @name) (subscript_declaration "subscript" @name)] @def.function
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name) computed_value: (computed_property)) @def.function
(typealias_declaration name: (type_identifier) @name) @def.type
(call_expression . [
  (simple_identifier) @callee
  (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @callee))
  (prefix_expression operation: "." @receiver target: (simple_identifier) @callee)]
  (call_suffix [(value_arguments "(") (lambda_literal)])) @call
(constructor_expression constructed_type: (user_type) @callee) @call
(import_declaration) @import
`;

export const QUERIES: Readonly<Record<CodeLanguage, string>> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  java: JAVA,
  go: GO,
  rust: RUST,
  c: C,
  cpp: CPP,
  csharp: CSHARP,
  ruby: RUBY,
  bash: BASH,
  php: PHP,
  kotlin: KOTLIN,
  scala: SCALA,
  swift: SWIFT,
};

/**
 * The queries of routes and HTTP requests (read by api/), for the languages that have them.
 * Declarations are read at module level only, and only those whose value may be a URL, a router
 * or a client: every other declarator never crosses into JavaScript.
 */
const JS_API = `
(call_expression function: (member_expression object: (_) @obj property: (property_identifier) @prop) arguments: (arguments) @args (#match? @prop "^(get|post|put|patch|delete|del|all|head|options|use|request|setGlobalPrefix)$")) @mcall
(class_declaration) @class
(call_expression function: (identifier) @fn arguments: (arguments) @args (#match? @fn "^(fetch|axios|ky|got|superagent)$")) @fcall
(program [(lexical_declaration (variable_declarator name: (identifier) @var value: [(string) (template_string) (call_expression) (new_expression) (object)] @value) @decl) (variable_declaration (variable_declarator name: (identifier) @var value: [(string) (template_string) (call_expression) (new_expression) (object)] @value) @decl)])
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @var value: [(string) (template_string) (call_expression) (new_expression) (object)] @value) @decl)))
(export_statement value: (_) @default) @export
(assignment_expression left: (member_expression object: (identifier) @m property: (property_identifier) @p) right: (_) @rhs (#eq? @m "module") (#eq? @p "exports")) @cjs
`;

const GO_API = `
(package_clause (package_identifier) @pkg)
(call_expression function: (selector_expression operand: (_) @obj field: (field_identifier) @prop) arguments: (argument_list) @args (#match? @prop "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|All|Handle|HandleFunc|Method|MethodFunc|Route|Mount|NewRequest|NewRequestWithContext|PostForm)$")) @mcall
(call_expression function: [(identifier) (selector_expression)] @fn arguments: (argument_list [(identifier) (selector_expression) (call_expression)])  @args) @fcall
(short_var_declaration left: (expression_list . (_) @var) right: (expression_list . (_) @value)) @decl
(assignment_statement left: (expression_list . (_) @var) right: (expression_list . (_) @value)) @decl
(var_spec name: (identifier) @var value: (expression_list . (_) @value)) @decl
(const_spec name: (identifier) @var value: (expression_list . (_) @value)) @decl
(return_statement (expression_list . (identifier) @ret))
`;

const RUST_API = `
(attribute_item (attribute (identifier) @attr arguments: (token_tree) @targs) (#match? @attr "^(get|post|put|patch|delete|head|options|route)$")) @aroute
(call_expression function: (field_expression value: (_) @obj field: (field_identifier) @prop) arguments: (arguments) @args (#match? @prop "^(route|nest|merge|service|configure|get|post|put|patch|delete|head|request)$")) @mcall
(call_expression function: (scoped_identifier) @fn arguments: (arguments) @args (#match? @fn "^reqwest(::blocking)?::get$")) @fcall
(const_item name: (identifier) @var value: (_) @value) @decl
(static_item name: (identifier) @var value: (_) @value) @decl
(let_declaration pattern: (identifier) @var value: (_) @value) @let
`;

const JAVA_API = `
(class_declaration) @type
(interface_declaration) @type
(method_invocation object: (_) @obj name: (identifier) @name arguments: (argument_list) @args (#match? @name "^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|patchForObject|put|delete|exchange|uri)$")) @call
(field_declaration declarator: (variable_declarator name: (identifier) @var value: (string_literal) @value)) @const
`;

/** TypeScript's enums of URLs (`enum Endpoints { Users = '/api/users' }`), besides what JavaScript has. */
const TS_API = `${JS_API}
(enum_declaration name: (identifier) @enum body: (enum_body) @members) @enumdecl
`;

export const API_QUERIES: Partial<Record<CodeLanguage, string>> = {
  javascript: JS_API,
  typescript: TS_API,
  tsx: TS_API,
  java: JAVA_API,
  go: GO_API,
  rust: RUST_API,
  python: `
(decorated_definition (decorator (call function: (attribute object: (identifier) @obj attribute: (identifier) @prop) arguments: (argument_list) @args)) definition: (function_definition name: (identifier) @handler) (#match? @prop "^(get|post|put|patch|delete|head|options|route|api_route)$")) @route
(call function: (attribute object: (_) @obj attribute: (identifier) @prop) arguments: (argument_list) @args (#match? @prop "^(include_router|register_blueprint|register|get|post|put|patch|delete|head|options|request)$")) @mcall
(module (expression_statement (assignment left: (identifier) @var right: (_) @value))) @assign
(module (expression_statement (augmented_assignment left: (identifier) @var right: (_) @value))) @assign
(call function: [(identifier) (attribute)] @dfn arguments: (argument_list) @dargs (#match? @dfn "^((django[.]urls[.])?(path|re_path)|(django[.]conf[.]urls[.])?url)$")) @dpath
`,
};
