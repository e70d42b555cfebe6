export type Result<T> = { readonly value: T } | { readonly errors: ReadonlyArray<unknown> };
export type Deferred<T> = "pending" | { readonly ready: T } | { readonly failed: ReadonlyArray<unknown> };
export interface Streamed<T> { readonly items: ReadonlyArray<T>; readonly isComplete: boolean }

// Mood.d.ts
export enum Mood {
  "HAPPY" = "HAPPY",
  "SAD" = "SAD",
}

// Names_user.d.ts
/** on User */
export interface Names_user {
  /** @read throwOnFieldError */
  readonly name: string | null;
  /** @read throwOnFieldError */
  readonly bio: string;
}

// Profile_user.d.ts
/** on User */
export interface Profile_user {
  /** @read plain */
  readonly name: string | null;
  /** @read plain */
  readonly mood: Mood | null;
}

// Incremental.d.ts
/** query Incremental @fetch */
export interface Incremental {
  /** @read plain */
  readonly viewer: Incremental.Viewer | null;
  /** @read plain */
  readonly actors: ReadonlyArray<Incremental.Actors | null> | null;
}
export namespace Incremental {
  export interface Viewer {
    /** @read plain */
    readonly login: string;
    /** @read deferred @present deferred(profile) */
    readonly profile: Deferred<Profile_user>;
    /** @read deferred @present deferred(friends) */
    readonly asUser: Deferred<Incremental.Viewer.AsUser>;
    /** @read plain */
    readonly organization: Incremental.Viewer.Organization | null;
    /** @read deferred @present deferred() */
    readonly names: Deferred<Names_user>;
  }
  export namespace Viewer {
    export interface AsUser {
      /** @read streamed */
      readonly friends: Streamed<Incremental.Viewer.AsUser.Friends | null> | null;
    }
    export namespace AsUser {
      export interface Friends {
        /** @read plain */
        readonly login: string;
      }
    }
    export interface Organization {
      /** @read streamed @present $more */
      readonly members: Streamed<Incremental.Viewer.Organization.Members> | null;
    }
    export namespace Organization {
      export interface Members {
        /** @read plain */
        readonly id: string;
      }
    }
  }
  export interface Actors {
    /** @read deferred @present deferred(bot) */
    readonly asBot: Deferred<Incremental.Actors.AsBot> | null;
  }
  export namespace Actors {
    export interface AsBot {
      /** @read plain */
      readonly model: string | null;
    }
  }
}
export interface IncrementalVariables {
  readonly more: boolean;
  readonly count: number;
}
