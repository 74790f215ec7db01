package com.acme.fulfil.partner;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Sockets that close abortively ({@code SO_LINGER} 0): closing one resets the connection and drops
 * whatever the kernel had not yet delivered. A gracefully closed socket keeps retransmitting its unsent
 * bytes for minutes, through a network partition or a frozen execution environment, so a booking
 * request the try had stopped waiting for could still reach the partner long after; the late-booking
 * hold counts from the moment the try stopped waiting, which is only true if the request can no longer
 * arrive after that moment.
 */
final class AbortiveSockets extends SocketFactory {
  private final SocketFactory sockets = SocketFactory.getDefault();

  @Override
  public Socket createSocket() throws IOException {
    return abortive(sockets.createSocket());
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return abortive(sockets.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return abortive(sockets.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return abortive(sockets.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
    return abortive(sockets.createSocket(address, port, localAddress, localPort));
  }

  private static Socket abortive(Socket socket) throws SocketException {
    socket.setSoLinger(true, 0);
    return socket;
  }
}
