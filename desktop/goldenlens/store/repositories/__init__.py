"""The project's data by concern: golden, responses, runs, labels, …"""
