package com.acme.fulfil.bench.driver.crac;

import java.util.ArrayList;
import java.util.List;

/**
 * The checkpoint half of SnapStart, for a JDK without CRaC. {@code org.crac} (in the artifact) looks
 * for a CRaC implementation in the package named by the system property {@code org.crac.Core.Compat},
 * then {@code javax.crac} and {@code jdk.crac}; the benchmark points the property here, so the
 * function's {@code Core.getGlobalContext().register(...)} lands in this context, exactly as it lands
 * in Lambda's. {@link #checkpointRestore()} then runs the hooks in the order CRaC does: before the
 * checkpoint in reverse order of registration, after the restore in order of registration.
 */
public final class Core {
  private static final GlobalContext GLOBAL = new GlobalContext();

  private Core() {}

  public static Context<Resource> getGlobalContext() {
    return GLOBAL;
  }

  /** How many resources were registered, which is how many hooks a checkpoint runs. */
  public static int registered() {
    return GLOBAL.resources.size();
  }

  public static void checkpointRestore() throws CheckpointException, RestoreException {
    try {
      GLOBAL.beforeCheckpoint(GLOBAL);
    } catch (Exception e) {
      CheckpointException failed = new CheckpointException();
      failed.addSuppressed(e);
      throw failed;
    }
    try {
      GLOBAL.afterRestore(GLOBAL);
    } catch (Exception e) {
      RestoreException failed = new RestoreException();
      failed.addSuppressed(e);
      throw failed;
    }
  }

  private static final class GlobalContext extends Context<Resource> {
    private final List<Resource> resources = new ArrayList<>();

    @Override
    public synchronized void register(Resource resource) {
      resources.add(resource);
    }

    @Override
    public synchronized void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
      for (Resource resource : resources.reversed()) {
        resource.beforeCheckpoint(this);
      }
    }

    @Override
    public synchronized void afterRestore(Context<? extends Resource> context) throws Exception {
      for (Resource resource : resources) {
        resource.afterRestore(this);
      }
    }
  }
}
