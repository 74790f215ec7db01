package com.acme.fulfil.local;

import com.acme.fulfil.local.runtime.PackagedFunction;
import com.acme.fulfil.local.scenario.PartnerDay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** The command line of README's first command, parsed once. */
public record RunOptions(
    boolean help,
    boolean serve,
    boolean cutover,
    int orders,
    double poisonShare,
    double rejectedShare,
    PartnerDay partnerDay,
    int batchSize,
    int concurrency,
    Optional<Integer> ordersPerHour,
    long seed,
    Set<String> configurations,
    Optional<Duration> deadline,
    Optional<Path> json,
    Optional<Path> report,
    Path artifact) {

  static final Set<String> CONFIGURATIONS = Set.of("incident", "fixed", "fixed-1800");

  public static final String USAGE = """
      Usage: ./run-local [options]

      Replays the orders-to-fulfil incident on a laptop: embedded SQS (ElasticMQ), DynamoDB (Dynoxide), a
      Secrets Manager endpoint, the simulated partner and a local Lambda event source mapping, at time
      scale 1/30. The same orders go to the incident's configuration (30 s visibility, no DLQ, the
      function it ran) and to this project's (FulfilOrderHandler, 6x visibility, DLQ), side by side.

        --orders N          orders to send (default 200)
        --rate N            real-world orders an hour the checkout service sends (default: three
                            quarters of what this project's configuration books an hour, 560 with
                            the defaults). More than it books builds a backlog; with enough
                            orders the backlog alarm fires: --rate 3000 --orders 600
        --poison PERCENT    share of poison messages: not JSON, or breaking the contract (default 2)
        --rejected PERCENT  share of orders whose address the partner rejects with 422 (default 1)
        --partner MODE      healthy | degraded | outage | blips | key-rotation | long-outage
                            (default healthy: the incident's latencies, a peak around 40 s and a
                            tail to 280 s). outage: 5 minutes of 503s; blips: three 1-minute
                            windows of 503s. Both add fixed-1800, this project's configuration as
                            it was when every failure waited out the 1,800 s visibility timeout,
                            and report how the orders that met the partner's downtime recovered.
                            long-outage: 503s for longer than an order retries, then a redrive of
                            the DLQ, this project alone: the DLQ alarms over the outage's tail and
                            during the redrive (about 8 minutes)
        --batch-size N      this project's batch size, 1 to 10 (default 1, as deployed)
        --concurrency N     this project's maximum concurrent invocations (default 10, the stack's);
                            the incident's mapping has no maximum, as the incident's had none
        --seed N            seed of the order stream and the partner's latencies (default 42)
        --only NAME         run one configuration: incident, fixed or fixed-1800
        --deadline SECONDS  stop after this many local seconds even if orders are unsettled
                            (default: 20 s after the sending; 140 s with a partner mode that causes
                            retries, for fixed-1800's 60 s scaled waits). The run ends sooner once
                            every configuration with a DLQ has settled, after at least 30 s.
        --json FILE         also write the report as JSON (one object per configuration)
        --report FILE       also write the report as Markdown, headed by the command, its report
                            version, the date and the machine (docs/reports/ holds the ones the
                            docs point to)
        --artifact ZIP      the function's deployable zip to run (default
                            function/target/fulfil-order.zip, which ./run-local builds)
        --cutover           rehearse the first deploy into the account that runs the old setup
                            (docs/deploy.md): the old setup with orders in flight, the cutover's
                            steps and its quiet time, then this project's configuration on the
                            same queue; --orders, --concurrency, --seed apply. Exit 1 if an order
                            is booked twice or lost
        --serve             start the local stack with this project's configuration and keep it
                            running; prints the endpoints and AWS CLI commands to try
        --help              this text
      """;

  public static RunOptions parse(String... args) {
    boolean help = false;
    boolean serve = false;
    boolean cutover = false;
    int orders = 200;
    double poison = 0.02;
    double rejected = 0.01;
    PartnerDay day = PartnerDay.HEALTHY;
    int batchSize = 1;
    int concurrency = 10;
    Optional<Integer> ordersPerHour = Optional.empty();
    long seed = 42;
    Optional<String> only = Optional.empty();
    Optional<Duration> deadline = Optional.empty();
    Optional<Path> json = Optional.empty();
    Optional<Path> report = Optional.empty();
    Path artifact = PackagedFunction.DEFAULT_ARTIFACT;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--help", "-h" -> help = true;
        case "--serve" -> serve = true;
        case "--cutover" -> cutover = true;
        case "--orders" -> orders = positive(option, value(args, ++i, option));
        case "--poison" -> poison = percent(option, value(args, ++i, option));
        case "--rejected" -> rejected = percent(option, value(args, ++i, option));
        case "--partner" -> day = PartnerDay.fromOption(value(args, ++i, option));
        case "--batch-size" -> batchSize = positive(option, value(args, ++i, option));
        case "--concurrency" -> concurrency = positive(option, value(args, ++i, option));
        case "--rate" -> ordersPerHour = Optional.of(positive(option, value(args, ++i, option)));
        case "--seed" -> seed = Long.parseLong(value(args, ++i, option));
        case "--only" -> {
          String name = value(args, ++i, option);
          if (!CONFIGURATIONS.contains(name)) {
            throw new IllegalArgumentException("--only takes incident, fixed or fixed-1800, got '" + name + "'");
          }
          only = Optional.of(name);
        }
        case "--deadline" -> deadline = Optional.of(Duration.ofSeconds(positive(option, value(args, ++i, option))));
        case "--json" -> json = Optional.of(Path.of(value(args, ++i, option)));
        case GeneratedReport.OPTION -> report = Optional.of(Path.of(value(args, ++i, option)));
        case "--artifact" -> artifact = Path.of(value(args, ++i, option));
        default -> throw new IllegalArgumentException("unknown option '" + option + "'");
      }
    }
    // fixed-1800 only shows a difference when orders retry after a downtime. Through a long outage the
    // incident's function would hand every order back every second for six minutes, on the same cores.
    Set<String> configurations = only.map(Set::of)
        .orElse(day.endsWithARedrive() ? Set.of("fixed") : day.hasOutages() ? CONFIGURATIONS : Set.of("incident", "fixed"));
    if (serve && cutover) {
      throw new IllegalArgumentException("--serve and --cutover are two different runs: choose one");
    }
    return new RunOptions(help, serve, cutover, orders, poison, rejected, day, batchSize, concurrency, ordersPerHour, seed, configurations,
        deadline, json, report, artifact);
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }

  private static int positive(String option, String value) {
    try {
      int parsed = Integer.parseInt(value);
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " takes a positive whole number, got '" + value + "'");
  }

  private static double percent(String option, String value) {
    try {
      double parsed = Double.parseDouble(value);
      if (parsed >= 0 && parsed <= 100) {
        return parsed / 100;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " takes a percentage from 0 to 100, got '" + value + "'");
  }
}
