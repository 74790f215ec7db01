package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.oncall.OnCallVariables;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.contract.timing.TimingBudgetText;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.QueueRef;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The shell variables docs/runbook.md's commands expect, with a local stack's values, and what the
 * AWS CLI needs to reach that stack. In AWS the runbook's "Before you start" reads the same variables
 * from the stack's outputs; here {@code --serve} prints them as export lines, and the runbook's test
 * runs its commands with them.
 *
 * @param partnerKeySecret the secret's name: Secrets Manager takes a name wherever it takes an ARN,
 *     so it can stand for the stack's PartnerApiKeySecretArn
 * @param functionName the function's name, the first part of every key in its table
 * @param budget what the local stack was created from, in its own time: {@code ./fulfil-ops} compares the
 *     queues with it and tells a redrive's retries by it, so it reads this budget, never one of its own making
 * @param maxConcurrency the local mapping's: {@code ./fulfil-ops capacity} models the stack with it
 */
public record RunbookEnvironment(AwsConnection aws, QueueRef orders, QueueRef deadLetters, String table,
    String partnerKeySecret, URI partnerBaseUrl, String functionName, TimingBudget budget, int maxConcurrency) {

  /**
   * A region name AWS does not have. For AWS's own regions AWS CLI v1 sends SQS commands to AWS's SQS
   * endpoint whatever AWS_ENDPOINT_URL_SQS says; for any other name it honours the variable. The local
   * services ignore the region the CLI signs for.
   */
  static final String CLI_REGION = "local";

  private static final Pattern NEEDS_NO_QUOTES = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  public RunbookEnvironment {
    Objects.requireNonNull(aws, "aws");
    Objects.requireNonNull(orders, "orders");
    Objects.requireNonNull(deadLetters, "deadLetters");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(partnerKeySecret, "partnerKeySecret");
    Objects.requireNonNull(partnerBaseUrl, "partnerBaseUrl");
    Objects.requireNonNull(functionName, "functionName");
    Objects.requireNonNull(budget, "budget");
  }

  /** Every variable, in the order {@link #exportLines()} prints them. */
  public Map<String, String> variables() {
    Map<String, String> variables = new LinkedHashMap<>();
    lines().forEach(variables::putAll);
    return variables;
  }

  /** {@code export} lines to paste into a shell: the CLI's credentials and endpoints, then the runbook's names. */
  public List<String> exportLines() {
    return lines().stream()
        .map(line -> line.entrySet().stream()
            .map(variable -> variable.getKey() + "=" + shellWord(variable.getValue()))
            .collect(Collectors.joining(" ", "export ", "")))
        .toList();
  }

  private List<Map<String, String>> lines() {
    Map<String, String> cli = new LinkedHashMap<>();
    cli.put("AWS_ACCESS_KEY_ID", aws.credentials().accessKeyId());
    cli.put("AWS_SECRET_ACCESS_KEY", aws.credentials().secretAccessKey());
    cli.put("AWS_DEFAULT_REGION", CLI_REGION);
    Map<String, String> endpoints = new LinkedHashMap<>();
    aws.sqsEndpoint().ifPresent(uri -> endpoints.put(AwsConnection.ENDPOINT_SQS, uri.toString()));
    aws.dynamoDbEndpoint().ifPresent(uri -> endpoints.put(AwsConnection.ENDPOINT_DYNAMODB, uri.toString()));
    aws.secretsManagerEndpoint().ifPresent(uri -> endpoints.put(AwsConnection.ENDPOINT_SECRETS_MANAGER, uri.toString()));
    Map<String, String> queues = new LinkedHashMap<>();
    queues.put(OnCallVariables.QUEUE_URL, orders.url());
    queues.put(OnCallVariables.DLQ_URL, deadLetters.url());
    queues.put(OnCallVariables.SOURCE_QUEUE_ARN, orders.arn());
    queues.put(OnCallVariables.DLQ_ARN, deadLetters.arn());
    Map<String, String> others = new LinkedHashMap<>();
    // ./fulfil-ops works on the local stack only with this; the runbook's own QUEUE_URL never switches it.
    others.put(OnCallVariables.STACK, "local");
    others.put(OnCallVariables.TABLE_NAME, table);
    others.put(OnCallVariables.SECRET_ARN, partnerKeySecret);
    others.put(OnCallVariables.PARTNER_BASE_URL, partnerBaseUrl.toString());
    others.put(OnCallVariables.FUNCTION_NAME, functionName);
    others.put(OnCallVariables.TIMING_BUDGET, TimingBudgetText.write(budget));
    others.put(OnCallVariables.MAX_CONCURRENCY, Integer.toString(maxConcurrency));
    return List.of(cli, endpoints, queues, others).stream().filter(line -> !line.isEmpty()).toList();
  }

  private static String shellWord(String value) {
    return NEEDS_NO_QUOTES.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
  }
}
