module example.com/partner-gateway-banks

go 1.19
