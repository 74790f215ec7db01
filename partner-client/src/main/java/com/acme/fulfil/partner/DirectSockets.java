package com.acme.fulfil.partner;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Sockets that go straight to the partner. The JVM's plain {@code new Socket()} asks the JVM-wide ProxySelector for a
 * SOCKS proxy ({@code socksProxyHost}) as it connects, and a proxy would take the request and deliver it on its own
 * schedule, past the abortive close the late-booking hold counts on ({@link OneRequestPerCall}).
 */
final class DirectSockets extends SocketFactory {

  @Override
  public Socket createSocket() {
    return new Socket(Proxy.NO_PROXY);
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localAddress, int localPort) throws IOException {
    return connected(new InetSocketAddress(host, port), new InetSocketAddress(localAddress, localPort));
  }

  @Override
  public Socket createSocket(InetAddress address, int port) throws IOException {
    return connected(new InetSocketAddress(address, port), null);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
    return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
  }

  private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
    Socket socket = createSocket();
    if (local != null) {
      socket.bind(local);
    }
    socket.connect(remote);
    return socket;
  }
}
