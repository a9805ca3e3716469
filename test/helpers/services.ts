import { TempRepo } from "./repo.js";

/**
 * Three repositories of one product, kept apart as teams keep them: a web client, an auth service
 * and a shared schema package. web depends on auth, auth on schema.
 */
export const SERVICE_FILES: Record<"web" | "auth" | "schema", Record<string, string>> = {
  web: {
    "src/login.ts": [
      "import { apiClient } from './api';",
      "",
      "/** Sends the login form: the session token comes back on success. */",
      "export async function submitLogin(email: string, password: string) {",
      "  const response = await apiClient.post('/api/v1/auth/login', { email, password });",
      "  return response.sessionToken;",
      "}",
      "",
    ].join("\n"),
    "src/api.ts": [
      "export const apiClient = {",
      "  async post(url: string, body: unknown) {",
      "    const r = await fetch(url, { method: 'POST', body: JSON.stringify(body) });",
      "    return r.json();",
      "  },",
      "};",
      "",
    ].join("\n"),
    "src/cart.ts": ["export function cartTotal(items: number[]) {", "  return items.reduce((a, b) => a + b, 0);", "}", ""].join("\n"),
  },
  auth: {
    "auth/login.py": [
      "from schema.user import UserRecord",
      "",
      "def login(email, password):",
      '    """Checks the password and opens a session: returns the session token."""',
      "    user = UserRecord.find(email)",
      "    if not user or not user.check_password(password):",
      "        raise PermissionError('bad credentials')",
      "    return open_session(user)",
      "",
      "def open_session(user):",
      "    return 'token-' + user.email",
      "",
    ].join("\n"),
    "auth/health.py": ["def health():", "    return 'ok'", ""].join("\n"),
  },
  schema: {
    "schema/user.py": [
      "class UserRecord:",
      '    """A user as every service stores it: email and password hash."""',
      "",
      "    @classmethod",
      "    def find(cls, email):",
      "        return None",
      "",
      "    def check_password(self, password):",
      "        return False",
      "",
    ].join("\n"),
    "schema/order.py": ["class OrderRecord:", "    total = 0", ""].join("\n"),
  },
};

/** The three service repositories as git repositories in temp dirs. */
export function makeServices(): Record<"web" | "auth" | "schema", TempRepo> {
  return {
    web: TempRepo.create(SERVICE_FILES.web, { git: true }),
    auth: TempRepo.create(SERVICE_FILES.auth, { git: true }),
    schema: TempRepo.create(SERVICE_FILES.schema, { git: true }),
  };
}
