/**
 * A module's part of deleting organizations and apps with everything in them (issue 35: the purge of
 * developers gone, with their sandbox organizations). Each statement takes `$1::uuid[]`: the
 * organizations' ids (`organizations`) or the apps' ids (`apps`), and deletes only the owner's rows,
 * children before parents. The composer runs every module's parts in one transaction, dependants'
 * first (the order is the composer's: see the developers module's purge).
 */
export interface PurgeParts {
  readonly organizations?: readonly string[];
  readonly apps?: readonly string[];
}
