package com.acme.fulfil.ops;

import com.acme.fulfil.contract.settings.DeployedNames;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.order.OrderMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * On-call's command, {@code ./fulfil-ops}: works on the deployed stack by default (its outputs, the
 * caller's credentials and region), or on {@code ./run-local --serve} when its variables are exported.
 * docs/runbook.md says when to use which command; docs/fulfil-ops.md is its interface. picocli parses the
 * command line: each command below is one class, whose fields are what it takes, so that anything else is
 * refused before any AWS call.
 */
public final class FulfilOps {
  /** What every command takes, and what its exit status means: a stable interface (docs/fulfil-ops.md). */
  static final String COMMON = """
      every command: --json (for scripts), --stack NAME (default fulfil-order; AWS only), --help
      AWS: AWS_REGION and the usual credentials. Local stack: paste the export lines of ./run-local --serve
      (FULFIL_OPS_STACK=local among them; every endpoint must be on localhost).
      Exit status: 0 fine; 1 something needs attention (drift, or a part check could not check; a DLQ read that
      could not see every message, a message not found or not dropped, a move not completed, orders arriving
      faster than they are booked, an order booked more than once, recorded as booked but not at the partner,
      known only under its id in another case, or the partner not answering about it, a drill whose page did
      not reach on-call);
      2 the command could not run (its arguments, the stack, AWS).
      """;

  /** How each command's help begins, its usage line following. */
  private static final String USAGE = "usage: ./fulfil-ops ";

  /** A command as its help names it: {@code synopsis} is its usage line after {@code ./fulfil-ops}. */
  record Verb(String name, String synopsis) {}

  /** Every command, in the order the general help lists them. */
  static final List<Verb> VERBS = commandLine().getSubcommands().values().stream()
      .filter(command -> command.getCommandSpec().userObject() instanceof Action)
      .map(command -> new Verb(command.getCommandName(), synopsis(command.getCommandSpec()))).toList();

  private FulfilOps() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args, System.getenv(), System.out, System.err, Clock.systemUTC()));
  }

  /** Runs one command; what it prints goes to {@code out}, problems and progress to {@code err}. */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err, Clock clock)
      throws InterruptedException {
    CommandLine commandLine = commandLine();
    commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    ParseResult parsed;
    Action action;
    try {
      parsed = commandLine.parseArgs(args);
      if (CommandLine.printHelpIfRequested(parsed)) {
        return 0;
      }
      if (!parsed.hasSubcommand()) {
        err.print(commandLine.getUsageMessage());
        return 2;
      }
      action = (Action) parsed.subcommand().commandSpec().userObject();
      action.check();
    } catch (CommandLine.ParameterException e) {
      err.println("fulfil-ops: " + said(e));
      err.println("(./fulfil-ops --help lists the commands; ./fulfil-ops COMMAND --help says what one takes)");
      return 2;
    }
    Common common = action.common;
    // A command for before the stack exists builds its own clients; every other one works on the stack.
    try (Stack stack = action instanceof AccountAction ? null : Stack.resolve(env, common.stack)) {
      Report report = action instanceof AccountAction beforeTheStack ? beforeTheStack.run(env, clock, err)
          : action.run(stack, clock, err);
      if (common.json) {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report.json()));
      } else {
        report.lines().forEach(out::println);
      }
      return report.exitCode();
    } catch (OpsException | IllegalArgumentException e) {
      err.println("fulfil-ops: " + e.getMessage());
      return 2;
    } catch (SdkException e) {
      err.println("fulfil-ops: " + AwsErrors.explain(e, "the stack").getMessage());
      return 2;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new Root())
        .addSubcommand(new OrderCommand()).addSubcommand(new DlqCommand()).addSubcommand(new RedriveCommand())
        .addSubcommand(new DropCommand()).addSubcommand(new CheckCommand()).addSubcommand(new CapacityCommand())
        .addSubcommand(new DrillCommand()).addSubcommand(new CutoverCommand())
        .addSubcommand(new CommandLine.HelpCommand());
    // An argument starting with @ is an id pasted wrong, never a file of arguments.
    commandLine.setExpandAtFiles(false);
    // The general help lists each command as its own help begins: its usage line, then what it does.
    commandLine.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, help -> {
      StringBuilder list = new StringBuilder();
      help.subcommands().values().stream().map(CommandLine.Help::commandSpec).filter(spec -> spec.userObject() instanceof Action)
          .forEach(spec -> list.append("  ").append(synopsis(spec)).append(System.lineSeparator())
              .append(String.join(System.lineSeparator(), spec.usageMessage().description()).indent(6)));
      return list.toString();
    });
    return commandLine;
  }

  /** The command's usage line, after {@code ./fulfil-ops}. */
  private static String synopsis(CommandSpec spec) {
    return spec.usageMessage().customSynopsis()[0].substring(USAGE.length());
  }

  /** picocli's refusal in the words docs/fulfil-ops.md and the help use. */
  private static String said(CommandLine.ParameterException e) {
    CommandSpec spec = e.getCommandLine().getCommandSpec();
    String name = spec.name();
    if (spec.userObject() instanceof Root) {
      return e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
          ? "no command " + unmatched.getUnmatched().getFirst() : e.getMessage();
    }
    String synopsis = synopsis(spec);
    List<String> positional = spec.positionalParameters().stream().map(p -> p.paramLabel()).toList();
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String first = unmatched.getUnmatched().getFirst();
      if (first.startsWith("-")) {
        return name + " does not take " + first + ": ./fulfil-ops " + synopsis;
      }
      return positional.isEmpty() ? name + " takes no arguments, got " + String.join(" ", unmatched.getUnmatched())
          : name + " takes one " + positional.getFirst();
    }
    if (e instanceof CommandLine.MissingParameterException && !positional.isEmpty()) {
      return name + (spec.positionalParameters().getFirst().arity().max() > 1 ? " takes one or more " : " takes one ")
          + positional.getFirst();
    }
    return e.getMessage();
  }

  @Command(name = "./fulfil-ops", synopsisHeading = "", usageHelpWidth = 110,
      customSynopsis = USAGE + "COMMAND [options]     (./fulfil-ops COMMAND --help: its own help)",
      commandListHeading = "%n", footer = "%n" + COMMON)
  private static final class Root {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;
  }

  /** What every command takes. */
  static final class Common {
    @Option(names = "--json", description = "the report as JSON, for scripts")
    boolean json;
    @Option(names = "--stack", paramLabel = "NAME", defaultValue = DeployedNames.STACK,
        description = "the stack (default ${DEFAULT-VALUE}; AWS only)")
    String stack;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;
  }

  /** One command: what every command takes, what it checks beyond its arguments' types, and what it does. */
  private abstract static class Action {
    @Mixin Common common;

    /** Refuses combinations picocli's types cannot: before any AWS call. */
    void check() {}

    abstract Report run(Stack stack, Clock clock, PrintStream progress) throws InterruptedException;
  }

  /** A command for an account with no stack yet: the caller's credentials and region, no stack outputs. */
  private abstract static class AccountAction extends Action {
    @Override
    final Report run(Stack stack, Clock clock, PrintStream progress) {
      throw new IllegalStateException(getClass().getSimpleName() + " works on the account, not on a stack");
    }

    abstract Report run(Map<String, String> env, Clock clock, PrintStream progress) throws InterruptedException;
  }

  @Command(name = "order", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "order ORDER_ID", footer = "%n" + COMMON,
      description = {"the order's record and story, its bookings at the partner (a lookup books nothing), its recent",
          "log lines, and what they add up to; exit status 1 when the partner holds more than one booking, could",
          "not be asked (then the verdict is not known), or has none for an order recorded as booked, and when",
          "the id is known only in another case (ids are case-sensitive: the record under it is named)"})
  private static final class OrderCommand extends Action {
    @Parameters(arity = "1", paramLabel = "ORDER_ID", description = "as order messages carry it")
    String orderId;
    @CommandLine.Spec CommandSpec spec;

    @Override
    void check() {
      // A pasted id with a space or a stray character would look up nothing and read as "not booked".
      if (!OrderMessage.isOrderId(orderId)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "order takes an order id as order messages carry"
            + " it (1 to 64 of A-Z a-z 0-9 _ -), got \"" + orderId + "\"");
      }
    }

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) {
      return new OrderStory(stack, clock).tell(orderId);
    }
  }

  @Command(name = "dlq", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "dlq", footer = "%n" + COMMON,
      description = {"every message in the DLQ: order, class, reason, booked already?, time left, what to do; exit",
          "status 1 when another reader held some of them (it says how many it read of how many)"})
  private static final class DlqCommand extends Action {

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) {
      return new DlqSurvey(stack, clock).report();
    }
  }

  @Command(name = "redrive", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "redrive [--go] [--rate N] [--include-droppable]",
      footer = "%n" + COMMON,
      description = {"dry run by default: what would move back, what to drop first, the rate; --go starts the move and",
          "follows it to the end; --rate N messages a second (1-500, default 5); --include-droppable moves",
          "what dlq says to drop too"})
  private static final class RedriveCommand extends Action {
    @Option(names = "--go", description = "start the move and follow it to the end")
    boolean go;
    @Option(names = "--dry-run", description = "what would move (the default)")
    boolean dryRun;
    @Option(names = "--rate", paramLabel = "N", defaultValue = "5", converter = Rate.class,
        description = "messages a second, 1 to 500 (SQS's limit); default ${DEFAULT-VALUE}")
    int rate;
    @Option(names = "--include-droppable", description = "move what dlq says to drop too")
    boolean includeDroppable;
    @CommandLine.Spec CommandSpec spec;

    @Override
    void check() {
      if (go && dryRun) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--go and --dry-run contradict each other");
      }
    }

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) throws InterruptedException {
      return new Redrive(stack, new DlqSurvey(stack, clock)).run(go, includeDroppable, rate, progress);
    }
  }

  /** A rate SQS's move task takes, or a refusal that says which. */
  static final class Rate implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        int rate = Integer.parseInt(value);
        if (rate >= 1 && rate <= 500) {
          return rate;
        }
      } catch (NumberFormatException e) {
        // said below
      }
      throw new CommandLine.TypeConversionException("--rate takes messages a second from 1 to 500 (SQS's limit), got "
          + value);
    }
  }

  @Command(name = "drop", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "drop MESSAGE_ID... [--archive DIR] [--force --reason WHY]",
      footer = "%n" + COMMON,
      description = {"archive each message whole to a file (--archive DIR, default ./dlq-archive, which git ignores: it",
          "holds customer data), then delete it from the DLQ; an id another reader holds is said to be maybe there;",
          "one whose dlq verdict is redrive is left there unless --force --reason \"WHY\" (the archive keeps WHY)"})
  private static final class DropCommand extends Action {
    @Parameters(arity = "1..*", paramLabel = "MESSAGE_ID", description = "the DLQ message ids dlq lists")
    List<String> messageIds;
    @Option(names = "--archive", paramLabel = "DIR", defaultValue = "dlq-archive", description = "default ./${DEFAULT-VALUE}")
    Path archive;
    @Option(names = "--force", description = "drop messages whose verdict is redrive too; needs --reason")
    boolean force;
    @Option(names = "--reason", paramLabel = "WHY", description = "why this order may be lost; the archive keeps it")
    String reason;
    @CommandLine.Spec CommandSpec spec;

    @Override
    void check() {
      if (force != (reason != null && !reason.isBlank())) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--force and --reason go together: --force --reason"
            + " \"why this order may be lost\" drops a message dlq would redrive, and the archive keeps the reason");
      }
    }

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) {
      return new Drop(stack, archive, new DlqSurvey(stack, clock), Optional.ofNullable(reason).map(String::strip))
          .drop(messageIds);
    }
  }

  @Command(name = "check", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "check", footer = "%n" + COMMON,
      description = {"what was changed by hand (CloudFormation's drift detection on every resource) and what the stack",
          "was deployed with other than infra/cdk.json commits; on the local stack, its queues against the budget",
          "./run-local --serve created them from"})
  private static final class CheckCommand extends Action {

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) throws InterruptedException {
      return new DriftCheck(stack, common.stack, DriftCheck.DETECTION_LIMIT).check();
    }
  }

  @Command(name = "capacity", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "capacity", footer = "%n" + COMMON,
      description = {"the last hour's arrivals and invocation durations against what the deployed mapping books an hour",
          "(at those durations and at the partner's worst case), and the orders waiting now against the",
          "backlog alarm"})
  private static final class CapacityCommand extends Action {

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) {
      return new CapacityCheck(stack, clock).report();
    }
  }

  @Command(name = "drill", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "drill", footer = "%n" + COMMON,
      description = {"pages on-call once, for a drill (AWS only; after every deploy): sets one of the stack's alarms to",
          "ALARM, requires CloudWatch's action history to say it published to the alarm topic, names every",
          "subscription still pending confirmation (nobody is paged there), and sets the alarm back; exit status 1",
          "when any of that failed"})
  private static final class DrillCommand extends Action {

    @Override
    Report run(Stack stack, Clock clock, PrintStream progress) throws InterruptedException {
      return new PageDrill(stack, clock, PageDrill.POLL_EVERY, PageDrill.ACTION_LIMIT).run();
    }
  }

  @Command(name = "cutover", synopsisHeading = "", descriptionHeading = "%n", optionListHeading = "%n", usageHelpWidth = 110,
      customSynopsis = USAGE + "cutover [--go | --prepare-queues]", footer = "%n" + COMMON,
      description = {"before the first deploy only (docs/deploy.md, \"First deploy\"): the old setup's event source mappings on",
          "orders-to-fulfil and when its tries' bookings can all have appeared, exit status 0 only once they can;",
          "--go disables the mappings first; --prepare-queues, once they are deleted, gives the queue and a new DLQ",
          "the stack's settings from infra/cdk.json, for the deploy to import"})
  private static final class CutoverCommand extends AccountAction {
    @Option(names = "--go", description = "disable every mapping on the queue, and wait until Lambda says Disabled")
    boolean go;
    @Option(names = "--prepare-queues", description = "create the DLQ and set the queue's attributes as the stack declares them")
    boolean prepareQueues;
    @CommandLine.Spec CommandSpec spec;

    @Override
    void check() {
      if (go && prepareQueues) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--go and --prepare-queues are steps apart: the"
            + " quiet time and the old function's deletion come between them");
      }
    }

    @Override
    Report run(Map<String, String> env, Clock clock, PrintStream progress) throws InterruptedException {
      Cutover.Step step = go ? Cutover.Step.DISABLE : prepareQueues ? Cutover.Step.PREPARE_QUEUES : Cutover.Step.REPORT;
      try (AccountClients aws = AccountClients.from(env)) {
        TimingBudget budget = CommittedSettings.from(env).budget();
        return new Cutover(aws.sqs(), aws.lambda(), aws.cloudFormation(), common.stack,
            new QueuePreparation(aws.sqs(), budget), clock).run(step, progress);
      }
    }
  }
}
