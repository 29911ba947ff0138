import { generateApiKey, hashApiKey, keyPrefix } from './api-key.util';
import type { IdentityRepository } from './identity.repository';

export interface CreatedKey {
  key: string;
  id: string;
  teamId: string;
  teamName: string;
  teamCreated: boolean;
}

/** Team and key administration (CLI, bootstrap). */
export class KeyManagementService {
  constructor(private readonly repository: IdentityRepository) {}

  async createKey(
    teamName: string,
    options: { name?: string; scopes?: string[]; key?: string } = {},
  ): Promise<CreatedKey> {
    const team = await this.repository.ensureTeam(teamName);
    const key = options.key ?? generateApiKey();
    const id = await this.repository.insertKey({
      teamId: team.id,
      hash: hashApiKey(key),
      prefix: keyPrefix(key),
      name: options.name,
      scopes: options.scopes?.length ? options.scopes : ['*'],
    });
    return { key, id, teamId: team.id, teamName: team.name, teamCreated: team.created };
  }

  /** Revokes a key given as the full key, its id, or its displayed prefix. */
  async revoke(keyOrPrefixOrId: string): Promise<number> {
    if (/^[0-9a-f-]{36}$/i.test(keyOrPrefixOrId)) return this.repository.revokeKeys({ id: keyOrPrefixOrId });
    if (keyOrPrefixOrId.length > keyPrefix(keyOrPrefixOrId).length)
      return this.repository.revokeKeys({ hash: hashApiKey(keyOrPrefixOrId) });
    return this.repository.revokeKeys({ prefix: keyOrPrefixOrId });
  }
}
