// The testing library for apps' Swift Testing suites; see issue 6.
import StateRestoration
