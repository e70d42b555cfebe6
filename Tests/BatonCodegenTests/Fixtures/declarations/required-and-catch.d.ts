export type Result<T> = { readonly value: T } | { readonly errors: ReadonlyArray<unknown> };
export type Deferred<T> = "pending" | { readonly ready: T } | { readonly failed: ReadonlyArray<unknown> };
export interface Streamed<T> { readonly items: ReadonlyArray<T>; readonly isComplete: boolean }

// DateTime.d.ts
export type DateTime = string;

// Strict_user.d.ts
/** on User */
export interface Strict_user {
  /** @read throwOnFieldError */
  readonly bio: string;
  /** @read throwOnFieldError */
  readonly friends: ReadonlyArray<Strict_user.Friends | null> | null;
}
export namespace Strict_user {
  export interface Friends {
    /** @read throwOnFieldError */
    readonly login: string;
  }
}

// Profile.d.ts
/** query Profile @fetch */
export interface Profile {
  /** @read plain */
  readonly viewer: Profile.Viewer;
}
export namespace Profile {
  export interface Viewer {
    /** @read plain */
    readonly name: string;
    /** @read catchToResult */
    readonly organization: Result<Profile.Viewer.Organization | null>;
    /** @read plain */
    readonly createdAt: DateTime | null;
    /** @read spread */
    readonly strict: Strict_user;
  }
  export namespace Viewer {
    export interface Organization {
      /** @read plain */
      readonly name: string | null;
    }
  }
}
export interface ProfileVariables {
}
