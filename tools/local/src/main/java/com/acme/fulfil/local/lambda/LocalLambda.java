package com.acme.fulfil.local.lambda;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A function's execution environments, managed as Lambda manages them: an invocation takes an idle
 * warm environment if there is one and otherwise starts a new one (a cold start); an environment runs
 * one invocation at a time; one whose process was killed at the timeout or exited is discarded, so the
 * next invocation there is a cold start.
 */
public final class LocalLambda implements LambdaFunction {
  private final FunctionConfiguration function;
  private final RuntimeHost host;
  private final Consumer<String> output;
  private final Map<String, String> extraEnvironment;
  private final ConcurrentLinkedDeque<ExecutionEnvironment> idle = new ConcurrentLinkedDeque<>();
  private final List<ExecutionEnvironment> all = new ArrayList<>();
  private final AtomicInteger coldStarts = new AtomicInteger();
  private volatile boolean closed;

  /**
   * @param output where the environments' stdout and stderr go, line by line (Lambda: CloudWatch Logs)
   * @param extraEnvironment variables the host adds to every environment beyond the function's (none in AWS;
   *     locally, say, a JVM option for a measurement)
   */
  public LocalLambda(FunctionConfiguration function, RuntimeHost host, Consumer<String> output,
      Map<String, String> extraEnvironment) {
    this.function = function;
    this.host = host;
    this.output = output;
    this.extraEnvironment = Map.copyOf(extraEnvironment);
  }

  public FunctionConfiguration function() {
    return function;
  }

  /** Invokes the function with {@code event} (Lambda's JSON) and returns what the Invoke API would. */
  @Override
  public InvokeResult invoke(byte[] event) {
    ExecutionEnvironment environment = idle.pollFirst();
    if (environment == null) {
      try {
        environment = startEnvironment();
      } catch (ExecutionEnvironment.InitFailedException e) {
        return e.failure();
      }
    }
    InvokeResult result = environment.invoke(event);
    if (environment.alive() && !closed) {
      idle.addFirst(environment);
    } else {
      environment.close();
    }
    return result;
  }

  /**
   * Starts {@code count} environments ahead of the first invocation, side by side, and waits for their
   * init, as provisioned concurrency does; they are then warm.
   */
  public void provision(int count) {
    List<CompletableFuture<ExecutionEnvironment>> starting = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      starting.add(CompletableFuture.supplyAsync(this::startEnvironment));
    }
    starting.forEach(environment -> idle.addLast(environment.join()));
  }

  /** The processes of the environments still alive, for measurements (peak memory, say). */
  public List<Long> environmentPids() {
    synchronized (all) {
      return all.stream().filter(ExecutionEnvironment::alive).map(ExecutionEnvironment::pid).toList();
    }
  }

  /** How many environments were started so far: every one of them was a cold start. */
  public int coldStarts() {
    return coldStarts.get();
  }

  private ExecutionEnvironment startEnvironment() {
    if (closed) {
      throw new IllegalStateException("the function " + function.name() + " was closed");
    }
    coldStarts.incrementAndGet();
    ExecutionEnvironment environment = ExecutionEnvironment.start(function, host, output, extraEnvironment);
    synchronized (all) {
      all.add(environment);
    }
    return environment;
  }

  @Override
  public void close() {
    closed = true;
    synchronized (all) {
      all.forEach(ExecutionEnvironment::close);
      all.clear();
    }
    idle.clear();
  }
}
