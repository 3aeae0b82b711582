def pytest_configure(config):
    config.addinivalue_line("markers", "ray: starts a real local Ray instance (some seconds); -m 'not ray' skips it")
