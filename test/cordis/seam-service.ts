import { Context, Service } from 'cordis'
import { knownFieldsOnly } from '../../src/contract/validate-request.js'
import { UserInteractionError, validateRequest, type AskUserQuestionAnswer, type AskUserQuestionRequest, type UserInteractionProvider } from '../../src/contract/index.js'

/**
 * A minimal stand-in for the harness's seam service (SEAM.md): the ask()
 * checks in the harness's order, one provider slot, `DUPLICATE_PROVIDER`
 * thrown synchronously, `NO_PROVIDER` when none is registered, and a
 * registration bound to the registering plugin's lifetime.
 */
export abstract class SeamService extends Service {
  // Not a #private field: cordis hands callers a proxy of the service.
  provider: UserInteractionProvider | undefined

  registerProvider(provider: UserInteractionProvider): () => void {
    if (this.provider) throw new UserInteractionError('DUPLICATE_PROVIDER', 'a user-interaction provider is already registered')
    this.provider = provider
    // `this.ctx` is the caller's context here: the registration ends with its plugin.
    return this.ctx.effect(() => () => {
      if (this.provider === provider) this.provider = undefined
    })
  }

  async ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    // The harness runs the seam's checks and ignores keys it does not know.
    validateRequest(knownFieldsOnly(request))
    if (!this.provider) throw new UserInteractionError('NO_PROVIDER', 'no user-interaction provider is registered')
    return this.provider.ask(request)
  }
}

/** Older harnesses' name for the seam. */
export class UserInteractionService extends SeamService {
  constructor(ctx: Context) {
    super(ctx, 'userInteraction', true)
  }
}

/** Newer harnesses' name for the same seam. */
export class UserQuestionsService extends SeamService {
  constructor(ctx: Context) {
    super(ctx, 'userQuestions', true)
  }
}
