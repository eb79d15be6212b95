import type { EventStore } from '../../../infrastructure/event-store/event-store.port';
import type { ReadYourWrites } from '../../../infrastructure/projections/read-your-writes';
import type { UserDoc } from '../../../projections/accounts/users.projection';
import type { AccountsQueries } from '../accounts.queries';
import { JwtStrategy } from './jwt.strategy';
import type { ServiceSecrets } from './secrets';
import type { TokenService } from './token.service';

const claims = { sub: 'u1', username: 'ada', role: 'user', jti: 't1', iat: 1_700_000_000, exp: 1_800_000_000 };
const ada = { id: 'u1', username: 'ada', role: 'user', is_banned: false, anonymized_at: null } as unknown as UserDoc;

/** A strategy over a users read model that holds the user once the projection reached `catchesUpTo`, or never. */
function strategyOver(catchesUpTo: number | null) {
  let projected = 0;
  const queries = {
    userById: async () => (catchesUpTo !== null && projected >= catchesUpTo ? ada : null),
    isTokenRevoked: async () => false,
  } as unknown as AccountsQueries;
  const waitFor = jest.fn(async (position: number) => {
    if (catchesUpTo !== null) projected = position;
    return catchesUpTo !== null;
  });
  const events = { headPosition: async () => 42 } as unknown as EventStore;
  const secrets = { jwtSecret: 'a-secret-of-at-least-thirty-two-characters' } as ServiceSecrets;
  return { strategy: new JwtStrategy(secrets, {} as TokenService, queries, { waitFor } as unknown as ReadYourWrites, events), waitFor };
}

describe('JwtStrategy', () => {
  it('given a token whose user the read model does not hold yet, when validated, then it waits for the users read model to reach the head and accepts it', async () => {
    const { strategy, waitFor } = strategyOver(42);

    await expect(strategy.validate(claims)).resolves.toMatchObject({ id: 'u1', via: 'jwt', tokenId: 't1' });
    expect(waitFor).toHaveBeenCalledWith(42, ['UserRegistered']);
  });

  it('given a token whose user never appears, when validated, then 401 Invalid or expired token after the bounded wait', async () => {
    const { strategy, waitFor } = strategyOver(null);

    await expect(strategy.validate(claims)).rejects.toMatchObject({ kind: 'unauthenticated', message: 'Invalid or expired token' });
    expect(waitFor).toHaveBeenCalledTimes(1);
  });
});
