package com.acme.fulfil.local.esm;

/** One receive of one message: which message, and how many times SQS has now handed it out. */
public record Delivery(String messageId, int receiveCount) {}
